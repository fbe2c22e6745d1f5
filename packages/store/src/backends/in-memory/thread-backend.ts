import { type Entry } from '@threadlens/core'
import { deepFreeze, entryRecallTerms, RECALL_TERMS_VERSION, threadId as toThreadId, type ThreadId } from '@threadlens/core/internal'
import { toThreadRecord, type ThreadRow } from '../../rows'
import { ThreadNotFoundError } from '../../errors'
import type { MemoryAttachmentStore } from './attachment-store'
import type { ThreadBackend } from '../../threads/thread-backend'
import { referencedAttachmentIds } from '../../transfer/thread-file-format'
import { threadIdTaken } from '../../threads/thread-store-on-backend'
import type { ThreadListListener, ThreadStoreEvent, ThreadStoreListener } from '../../threads/thread-store'

interface StoredThread {
  row: ThreadRow
  readonly entries: Entry[]
  readonly calls: Set<string>
  readonly results: Set<string>
}

/** What the in-memory threads tell the stores beside them. */
export interface MemoryThreadHooks {
  /** Entries were appended (the call log calibrates from them). */
  readonly onAppend: (entries: readonly Entry[]) => void
  /** A thread was deleted (the call log drops its attempts). */
  readonly onDelete: (threadId: string) => void
  /** Everything was erased (memories too). */
  readonly onEraseAll: () => void
  /** Where the images and files of these threads are kept. */
  readonly attachments: MemoryAttachmentStore
}

// long: one object literal of the ThreadBackend methods over the in-memory maps they share, each method short; split up, the interface would only be scattered.
/**
 * Threads in memory, for the fallback stores and tests: nothing survives a reload. Every step is
 * synchronous between its reads and its writes, so it is atomic; events are delivered on a
 * microtask, as with IndexedDB a listener never runs inside the caller's write. A windowed load
 * gives the whole thread (it is in memory anyway).
 */
export function memoryThreadBackend(hooks: MemoryThreadHooks): ThreadBackend {
  const threads = new Map<string, StoredThread>()
  const threadListeners = new Map<string, Set<ThreadStoreListener>>()
  const listListeners = new Set<ThreadListListener>()
  // Subscribers that asked for `record-update` events.
  const recordListeners = new WeakSet<ThreadStoreListener>()
  let listPending = false

  const rows = (): ThreadRow[] =>
    [...threads.values()].map((thread) => thread.row).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))

  // One list event per burst of writes, after them, as liveQuery gives.
  const notifyList = (): void => {
    if (listListeners.size === 0 || listPending) return
    listPending = true
    queueMicrotask(() => {
      listPending = false
      const event = { type: 'list-update' as const, threads: rows().map(toThreadRecord) }
      for (const listener of [...listListeners]) listener(event)
    })
  }

  const notifyThread = (threadId: ThreadId, event: ThreadStoreEvent): void => {
    const listeners = threadListeners.get(threadId)
    if (listeners === undefined || listeners.size === 0) return
    queueMicrotask(() => {
      for (const listener of [...listeners]) listener(event)
    })
  }

  const notifyRecord = (threadId: ThreadId, row: ThreadRow): void => {
    const listeners = threadListeners.get(threadId)
    if (listeners === undefined) return
    const event: ThreadStoreEvent = { type: 'record-update', threadId, record: toThreadRecord(row) }
    queueMicrotask(() => {
      for (const listener of [...listeners]) if (recordListeners.has(listener)) listener(event)
    })
  }

  const stored = (threadId: string, operation: string): StoredThread => {
    const thread = threads.get(threadId)
    if (thread === undefined) throw new ThreadNotFoundError(threadId, operation)
    return thread
  }

  const push = (thread: StoredThread, entries: readonly Entry[]): void => {
    for (const entry of entries) {
      thread.entries.push(deepFreeze(entry))
      const toolCallId = entry.refs.toolCallId
      if (toolCallId !== undefined && entry.kind === 'tool_call') thread.calls.add(toolCallId)
      if (toolCallId !== undefined && entry.kind === 'tool_result') thread.results.add(toolCallId)
    }
  }

  const insert = (row: ThreadRow, entries: readonly Entry[], operation: string): void => {
    if (threads.has(row.id)) throw threadIdTaken(row.id, operation)
    const thread: StoredThread = { row, entries: [], calls: new Set(), results: new Set() }
    push(thread, entries)
    threads.set(row.id, thread)
    notifyList()
  }

  return {
    persistent: false,
    assertWorking: () => undefined,
    getRow: async (threadId) => threads.get(threadId)?.row,
    listRows: async () => rows(),
    async insert(row, entries, operation, attachments = []) {
      insert(row, entries, operation)
      hooks.attachments.share(row.id, attachments)
    },
    readAttachments: async (ids) => hooks.attachments.rows(ids),

    async append(threadId, _prepared, operation, _time, plan) {
      const thread = stored(threadId, operation)
      const { entries, row } = plan(thread.row, { calls: thread.calls, results: thread.results })
      if (entries.length === 0) return entries
      push(thread, entries)
      thread.row = row
      hooks.onAppend(entries)
      notifyThread(threadId, { type: 'entry-append', threadId, entries })
      notifyList()
      return entries
    },

    async place(threadId, operation, _time, plan) {
      const thread = stored(threadId, operation)
      const placement = plan(thread.row, [...thread.entries])
      if (placement.added.length === 0 && placement.moved === 0) return placement
      thread.entries.splice(placement.changedFrom)
      push(thread, placement.entries.slice(placement.changedFrom - placement.fromSeq))
      thread.row = placement.row
      hooks.onAppend(placement.added)
      const { lastSeq } = placement.row
      notifyThread(
        threadId,
        placement.moved === 0
          ? { type: 'entry-append', threadId, entries: placement.added }
          : { type: 'thread-rebase', threadId, fromSeq: placement.fromSeq, lastSeq },
      )
      notifyList()
      return placement
    },

    async updateRow(threadId, operation, change) {
      const thread = stored(threadId, operation)
      thread.row = change(thread.row)
      notifyRecord(threadId, thread.row)
      notifyList()
      return thread.row
    },

    async read(threadId, operation) {
      const thread = stored(threadId, operation)
      return { row: thread.row, entries: [...thread.entries] }
    },

    async readFrom(threadId, fromSeq, operation) {
      return stored(threadId, operation).entries.slice(fromSeq)
    },

    async recallTerms(threadId, operation) {
      // Nothing is kept between reloads here: the terms are worked out from the entries each time.
      return stored(threadId, operation).entries.map((entry) => ({
        threadId,
        seq: entry.seq,
        id: entry.id,
        terms: entryRecallTerms(entry) ?? null,
        version: RECALL_TERMS_VERSION,
      }))
    },

    async insertFrom(sourceId, operation, upTo, build) {
      const source = stored(sourceId, operation)
      const lastSeq = upTo(source.row)
      const { row, entries } = build(source.row, source.entries.slice(0, lastSeq + 1))
      insert(row, entries, operation)
      hooks.attachments.share(row.id, hooks.attachments.rows(referencedAttachmentIds(entries)))
      return row
    },

    async delete(threadId) {
      if (!threads.delete(threadId)) return
      hooks.attachments.forgetThread(threadId)
      hooks.onDelete(threadId)
      notifyThread(threadId, { type: 'thread-delete', threadId })
      notifyList()
    },

    async eraseAll() {
      const ids = [...threads.keys()].map((id) => toThreadId(id))
      threads.clear()
      hooks.onEraseAll()
      for (const id of ids) hooks.attachments.forgetThread(id)
      for (const id of ids) hooks.onDelete(id)
      for (const id of ids) notifyThread(id, { type: 'thread-delete', threadId: id })
      notifyList()
    },

    subscribe(rawThreadId, listener, options = {}) {
      const threadId = toThreadId(rawThreadId)
      let listeners = threadListeners.get(threadId)
      if (listeners === undefined) threadListeners.set(threadId, (listeners = new Set()))
      listeners.add(listener)
      const afterSeq = options.afterSeq
      const thread = threads.get(threadId)
      if (options.records === true) {
        recordListeners.add(listener)
        if (thread !== undefined) {
          const event: ThreadStoreEvent = { type: 'record-update', threadId, record: toThreadRecord(thread.row) }
          queueMicrotask(() => {
            if (listeners.has(listener)) listener(event)
          })
        }
      }
      if (afterSeq !== undefined && thread !== undefined && thread.row.lastSeq > afterSeq) {
        const entries = thread.entries.slice(afterSeq + 1)
        queueMicrotask(() => {
          if (listeners.has(listener)) listener({ type: 'entry-append', threadId, entries })
        })
      }
      return () => {
        listeners.delete(listener)
      }
    },

    subscribeList(listener) {
      listListeners.add(listener)
      queueMicrotask(() => {
        if (listListeners.has(listener)) listener({ type: 'list-update', threads: rows().map(toThreadRecord) })
      })
      return () => {
        listListeners.delete(listener)
      }
    },
  }
}
