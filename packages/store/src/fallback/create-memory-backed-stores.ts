import { entryId, InvalidEntryError, threadId as toThreadId, type Entry, type ThreadId } from '@threadlens/core'
import { toThreadRecord, type ThreadRow } from '../database/rows'
import { StorageError, ThreadNotFoundError } from '../errors'
import { memoryStoreOver } from '../memory/memory-store-over'
import { createMemory } from '@threadlens/core'
import type { Memory } from '@threadlens/core'
import type { MemoryStore, MemoryStoreListener } from '../memory/memory-store'
import type { CallLogStore } from '../calls/call-log-store'
import { createMemoryCallLog } from '../calls/create-memory-call-log'
import {
  appendedRow,
  parseCreateOptions,
  parseForkOptions,
  parseImportOptions,
  resolveThreadStoreOptions,
  toThread,
} from '../threads/create-thread-store'
import { assignSeqs, prepareEntries, type PreparedEntry } from '../threads/prepare-entries'
import { checkThreadLimits } from '../threads/thread-limits'
import type { ThreadListListener, ThreadStore, ThreadStoreEvent, ThreadStoreListener, ThreadStoreOptions } from '../threads/thread-store'
import { newThreadRow, parseRecordChanges, parseUpdateOptions, recordFieldsOf, updatedRow } from '../threads/thread-record'
import { resolveImportLimits } from '../transfer/import-limits'
import { importEntryError, parseImportInput, referencedAttachmentIds, serializeThread } from '../transfer/thread-jsonl'
import type { AttachmentStore } from '../attachments/attachment-store'
import { createMemoryAttachmentStore } from '../attachments/create-memory-attachment-store'
import { attachmentLines, importedAttachmentRows } from '../threads/create-thread-store'

interface StoredThread {
  row: ThreadRow
  readonly entries: Entry[]
  readonly calls: Set<string>
  readonly results: Set<string>
}

export interface MemoryBackedStores {
  readonly threads: ThreadStore
  readonly memory: MemoryStore
  /** Failed attempts and token calibrations, in memory. */
  readonly calls: CallLogStore
  /** Images and files, in memory; deleted, forked, exported and imported with their threads. */
  readonly attachments: AttachmentStore
  /** Always `false`: nothing survives a reload. Show it in the UI. */
  readonly persistent: false
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * The same thread and memory store API with nothing persisted: the fallback when IndexedDB is
 * unavailable (private browsing, disabled site data), and handy in tests. Same validation, seq
 * rules, events and import/export; a windowed `load` returns the whole thread (it is in memory anyway).
 */
export function createMemoryBackedStores(options: ThreadStoreOptions = {}): MemoryBackedStores {
  const calls = createMemoryCallLog(options.now === undefined ? {} : { now: options.now })
  const attachments = createMemoryAttachmentStore(options.now === undefined ? {} : { now: options.now })
  const { counters, now, createId } = resolveThreadStoreOptions(options)
  const importLimits = resolveImportLimits(options.importLimits)
  const threads = new Map<string, StoredThread>()
  const threadListeners = new Map<string, Set<ThreadStoreListener>>()
  const memories = new Map<string, Memory>()
  const memoryListeners = new Map<string, Set<MemoryStoreListener>>()
  const listListeners = new Set<ThreadListListener>()
  let listPending = false

  const records = () =>
    [...threads.values()]
      .map((thread) => thread.row)
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map(toThreadRecord)

  // One list event per burst of writes, after them, as liveQuery gives.
  const notifyList = (): void => {
    if (listListeners.size === 0 || listPending) return
    listPending = true
    queueMicrotask(() => {
      listPending = false
      const event = { type: 'list-update' as const, threads: records() }
      for (const listener of [...listListeners]) listener(event)
    })
  }

  const notifyThread = (threadId: ThreadId, event: ThreadStoreEvent): void => {
    const listeners = threadListeners.get(threadId)
    if (listeners === undefined || listeners.size === 0) return
    // Asynchronous, as with IndexedDB: a listener never runs inside the caller's write.
    queueMicrotask(() => {
      for (const listener of [...listeners]) listener(event)
    })
  }

  const stored = (threadId: string, operation: string): StoredThread => {
    const thread = threads.get(threadId)
    if (thread === undefined) throw new ThreadNotFoundError(threadId, operation)
    return thread
  }

  const insert = (row: ThreadRow, entries: readonly Entry[], operation: string): void => {
    if (threads.has(row.id)) throw new StorageError('constraint', operation, `A thread "${row.id}" already exists; pick another id (or leave it out for a random one).`)
    const thread: StoredThread = { row, entries: [], calls: new Set(), results: new Set() }
    push(thread, entries)
    threads.set(row.id, thread)
    notifyList()
  }

  const push = (thread: StoredThread, entries: readonly Entry[]): void => {
    for (const entry of entries) {
      thread.entries.push(deepFreeze(entry))
      const toolCallId = entry.refs.toolCallId
      if (toolCallId !== undefined && entry.kind === 'tool_call') thread.calls.add(toolCallId)
      if (toolCallId !== undefined && entry.kind === 'tool_result') thread.results.add(toolCallId)
    }
  }

  const appendPrepared = (rawThreadId: string, prepared: readonly PreparedEntry[], operation: string): Entry[] => {
    const threadId = toThreadId(rawThreadId)
    const thread = stored(threadId, operation)
    const entries = assignSeqs(threadId, prepared, thread.row.lastSeq + 1, { calls: thread.calls, results: thread.results })
    if (entries.length === 0) return entries
    const next = appendedRow(thread.row, entries, now())
    checkThreadLimits(next, importLimits)
    push(thread, entries)
    thread.row = next
    calls.addFromEntries(entries)
    notifyThread(threadId, { type: 'entry-append', threadId, entries })
    notifyList()
    return entries
  }

  const threadStore: ThreadStore = {
    persistent: false,
    importLimits,
    async create(createOptions) {
      const parsed = parseCreateOptions(createOptions)
      const { id: givenId, ...fields } = parsed
      const row = newThreadRow(toThreadId(givenId ?? createId()), fields, now())
      insert(row, [], 'create')
      return toThreadRecord(row)
    },
    async get(threadId) {
      const thread = threads.get(threadId)
      return thread === undefined ? undefined : toThreadRecord(thread.row)
    },
    async append(threadId, input) {
      const [entry] = appendPrepared(threadId, prepareEntries([input], { counters, now: now(), createId }), 'append')
      return entry as Entry
    },
    async appendMany(threadId, inputs) {
      return appendPrepared(threadId, prepareEntries(inputs, { counters, now: now(), createId }), 'appendMany')
    },
    async load(threadId) {
      const thread = stored(threadId, 'load')
      return toThread(thread.row, [...thread.entries], now, createId)
    },
    async list() {
      return records()
    },
    async update(threadId, changes, updateOptions) {
      const parsed = parseRecordChanges(changes)
      const checked = parseUpdateOptions(updateOptions)
      const thread = stored(threadId, 'update')
      const next = updatedRow(thread.row, parsed, checked, now())
      checkThreadLimits(next, importLimits)
      thread.row = next
      notifyList()
      return toThreadRecord(thread.row)
    },
    async rename(threadId, title, updateOptions) {
      return threadStore.update(threadId, { title }, updateOptions)
    },
    subscribeList(listener) {
      listListeners.add(listener)
      queueMicrotask(() => {
        if (listListeners.has(listener)) listener({ type: 'list-update', threads: records() })
      })
      return () => {
        listListeners.delete(listener)
      }
    },
    async fork(rawThreadId, forkOptions) {
      const parsed = parseForkOptions(forkOptions)
      const parentId = toThreadId(rawThreadId)
      const parent = stored(parentId, 'fork')
      if (parsed.atSeq > parent.row.lastSeq) throw new InvalidEntryError('atSeq', `atSeq must be an existing seq (0..${parent.row.lastSeq}), got ${parsed.atSeq}`)
      const childId = toThreadId(parsed.id ?? createId())
      const copies = parent.entries.slice(0, parsed.atSeq + 1).map((entry) => ({ ...entry, id: entryId(createId()), threadId: childId }) as Entry)
      const time = now()
      const row: ThreadRow = {
        ...appendedRow(newThreadRow(childId, { ...recordFieldsOf(parent.row), title: parsed.title ?? parent.row.title }, time), copies, time),
        parent: { threadId: parentId, atSeq: parsed.atSeq },
      }
      insert(row, copies, 'fork')
      attachments.share(childId, attachments.rows(referencedAttachmentIds(copies)))
      return toThreadRecord(row)
    },
    async delete(rawThreadId) {
      const threadId = toThreadId(rawThreadId)
      if (threads.delete(threadId)) {
        calls.deleteThread(threadId)
        attachments.forgetThread(threadId)
        notifyThread(threadId, { type: 'thread-delete', threadId })
        notifyList()
      }
    },
    async eraseAll() {
      const ids = [...threads.keys()]
      threads.clear()
      memories.clear()
      for (const id of ids) calls.deleteThread(id)
      for (const id of ids) attachments.forgetThread(id)
      for (const id of ids) notifyThread(toThreadId(id), { type: 'thread-delete', threadId: toThreadId(id) })
      notifyList()
    },
    subscribe(rawThreadId, listener, subscribeOptions = {}) {
      const threadId = toThreadId(rawThreadId)
      let listeners = threadListeners.get(threadId)
      if (listeners === undefined) {
        listeners = new Set()
        threadListeners.set(threadId, listeners)
      }
      listeners.add(listener)
      const afterSeq = subscribeOptions.afterSeq
      const thread = threads.get(threadId)
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
    async export(threadId) {
      const thread = stored(threadId, 'export')
      return serializeThread(toThreadRecord(thread.row), thread.entries, await attachmentLines(attachments.rows(referencedAttachmentIds(thread.entries))))
    },
    async import(input, importOptions) {
      const parsedOptions = parseImportOptions(importOptions)
      const parsed = await parseImportInput(input, importLimits)
      const threadId = toThreadId(createId())
      const time = now()
      const describeError = (error: unknown, offset: number): unknown => importEntryError(error, parsed, offset)
      const prepared = prepareEntries(parsed.inputs, { counters, now: time, createId, dropGivenTokens: true, describeError })
      const entries = assignSeqs(threadId, prepared, 0, { calls: new Set(), results: new Set() }, describeError, true)
      const fields = { ...parsed.fields, title: parsedOptions.title ?? parsed.fields.title, metadata: { ...parsed.fields.metadata, ...parsedOptions.metadata } }
      const row = appendedRow(newThreadRow(threadId, fields, time), entries, time)
      const imported = await importedAttachmentRows(parsed, time)
      insert(row, entries, 'import')
      attachments.share(threadId, imported)
      return threadId
    },
  }

  const memoryStore = memoryStoreOver({
    persistent: false,
    createId,
    get: async (memoryId) => memories.get(memoryId) ?? createMemory(memoryId, now()),
    change: async (memoryId, _operation, change) => {
      const time = now()
      const next = deepFreeze(change(memories.get(memoryId) ?? createMemory(memoryId, time), time))
      memories.set(memoryId, next)
      const listeners = memoryListeners.get(memoryId)
      if (listeners !== undefined) queueMicrotask(() => listeners.forEach((listener) => listener({ type: 'memory-update', memory: next })))
      return next
    },
    subscribe: (memoryId, listener) => {
      let listeners = memoryListeners.get(memoryId)
      if (listeners === undefined) {
        listeners = new Set()
        memoryListeners.set(memoryId, listeners)
      }
      listeners.add(listener)
      const current = memories.get(memoryId) ?? createMemory(memoryId, now())
      queueMicrotask(() => {
        if (listeners.has(listener)) listener({ type: 'memory-update', memory: current })
      })
      return () => {
        listeners.delete(listener)
      }
    },
  })

  return { threads: threadStore, memory: memoryStore, calls, attachments, persistent: false }
}
