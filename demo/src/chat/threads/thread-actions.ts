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
  /**
   * JSONL (a threadlens export) or JSON (an OpenAI-style messages array) as a new thread; when a
   * chat with its title exists already, the new one's title says "(imported)".
   */
  importFile(file: File): Promise<ImportedThread>
  exportThread(record: ThreadRecord): Promise<void>
}

/** What an import made. */
export interface ImportedThread {
  readonly threadId: string
  readonly title: string
  readonly entryCount: number
  /** Whether "(imported)" was added because a chat with the same title existed. */
  readonly marked: boolean
  /** How many changes the import made to keep a messages array (a reused call id renamed, …); 0 for none. */
  readonly changeCount: number
}

/** The title an imported chat gets: its own, or with "(imported)" (then "(imported 2)", …) when that one is taken. */
export function importedTitle(title: string, taken: ReadonlySet<string>): string {
  if (!taken.has(title)) return title
  for (let count = 1; ; count++) {
    const marked = `${title} (imported${count === 1 ? '' : ` ${count}`})`
    if (!taken.has(marked)) return marked
  }
}

/** What the app says once an import is done. */
export function importNotice(imported: ImportedThread): string {
  const entries = `${imported.entryCount.toLocaleString('en-US')} ${imported.entryCount === 1 ? 'entry' : 'entries'}`
  const count = imported.changeCount
  const changes = count === 0 ? '' : ` ${count} change${count === 1 ? '' : 's'} made on import.`
  return imported.marked
    ? `Imported “${imported.title}” (${entries}) and opened it; a chat with the same title already exists, so this one is marked “(imported)”.${changes}`
    : `Imported “${imported.title}” (${entries}) and opened it.${changes}`
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
      const taken = new Set((await stores.threads.list()).map((record) => titleOf(record)))
      const { threadId, changes } = await stores.threads.import(file, isJsonArray ? { title: titleFromFileName(file.name) } : {})
      const record = await stores.threads.get(threadId)
      const own = titleOf(record)
      const title = importedTitle(own, taken)
      if (title !== own) await stores.threads.rename(threadId, title)
      await listed(threadId)
      return { threadId, title, entryCount: record?.entryCount ?? 0, marked: title !== own, changeCount: changes.length }
    },
    async exportThread(record) {
      downloadText(fileNameOf(titleOf(record), 'jsonl'), await stores.threads.export(record.id), 'application/x-ndjson')
    },
  }
}
