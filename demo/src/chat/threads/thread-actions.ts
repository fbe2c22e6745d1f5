import type { ThreadlensStores, ThreadRecord } from '@threadlens/store'
import { DEFAULT_TITLE } from '../chat-config'
import { downloadText, fileNameOf, titleFromFileName } from './thread-files'
import { threadListOf, titleOf } from './thread-list'
import { forgetRecallIndex } from '../session/recall-indexes'

/** What the sidebar and the chat view do to threads; the store's live list tells every tab. */
export interface ThreadActions {
  create(): Promise<string>
  rename(threadId: string, title: string): Promise<void>
  /** A new thread with entries 0..atSeq of this one, titled after it; returns its id. */
  fork(threadId: string, title: string, atSeq: number): Promise<string>
  remove(threadId: string): Promise<void>
  /** JSONL (a threadlens export) or JSON (an OpenAI-style messages array); returns the new thread's id. */
  importFile(file: File): Promise<string>
  exportThread(record: ThreadRecord): Promise<void>
}

export function threadActions(stores: ThreadlensStores): ThreadActions {
  const list = threadListOf(stores.threads)
  // A new thread is opened once the live list shows it.
  const listed = async (threadId: string): Promise<string> => {
    await list.includes(threadId)
    return threadId
  }
  return {
    async create() {
      const record = await stores.threads.create({ title: DEFAULT_TITLE })
      return listed(record.id)
    },
    async rename(threadId, title) {
      await stores.threads.rename(threadId, title.trim().slice(0, 200))
    },
    async fork(threadId, title, atSeq) {
      const fork = await stores.threads.fork(threadId, { atSeq, title: `${title} (fork at #${atSeq})` })
      return listed(fork.id)
    },
    async remove(threadId) {
      await stores.threads.delete(threadId)
      forgetRecallIndex(threadId)
    },
    async importFile(file) {
      // An OpenAI messages array carries no title: name the chat after the file.
      const isJsonArray = file.name.toLowerCase().endsWith('.json')
      return listed(await stores.threads.import(file, isJsonArray ? { title: titleFromFileName(file.name) } : {}))
    },
    async exportThread(record) {
      downloadText(fileNameOf(titleOf(record), 'jsonl'), await stores.threads.export(record.id), 'application/x-ndjson')
    },
  }
}
