import type { JsonObject } from '@threadlens/core'
import type { ThreadlensStores, ThreadRecord } from '@threadlens/store'
import { DEFAULT_TITLE } from '../chat-config'
import { threadListOf } from './thread-list'
import { downloadText, fileNameOf, titleFromFileName, withTitle } from './thread-files'
import { forgetTitle, renameThread, titleOf } from './thread-titles'

/** What the sidebar and the chat view do to threads; each tells the other tabs. */
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

export function threadActions(stores: ThreadlensStores, renamed: () => JsonObject): ThreadActions {
  const list = threadListOf(stores.threads)
  return {
    async create() {
      const record = await stores.threads.create({ title: DEFAULT_TITLE })
      await list.announce()
      return record.id
    },
    async rename(threadId, title) {
      await renameThread(stores.memory, threadId, title)
      await list.announce()
    },
    async fork(threadId, title, atSeq) {
      const fork = await stores.threads.fork(threadId, { atSeq, title: `${title} (fork at #${atSeq})` })
      await list.announce()
      return fork.id
    },
    async remove(threadId) {
      await stores.threads.delete(threadId)
      await forgetTitle(stores.memory, threadId).catch(() => undefined)
      await list.announce()
    },
    async importFile(file) {
      // An OpenAI messages array carries no title: name the chat after the file.
      const isJsonArray = file.name.toLowerCase().endsWith('.json')
      const threadId = await stores.threads.import(file, isJsonArray ? { title: titleFromFileName(file.name) } : {})
      await list.announce()
      return threadId
    },
    async exportThread(record) {
      const title = titleOf(record, renamed())
      downloadText(fileNameOf(title, 'jsonl'), withTitle(await stores.threads.export(record.id), title), 'application/x-ndjson')
    },
  }
}
