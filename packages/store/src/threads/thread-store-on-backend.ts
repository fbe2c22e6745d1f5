import { createThread, InvalidEntryError, type Entry, type Thread, type TokenCounter } from '@threadlens/core'
import {
  array,
  counterNow,
  custom,
  estimatedEncoding,
  object,
  optional,
  record,
  string,
  threadId as toThreadId,
  type Reader,
} from '@threadlens/core/internal'
import type { CounterSource } from '@threadlens/core/models'
import { toThreadRecord, type ThreadRow } from '../rows'
import { StorageError, type UnreadableEntryError } from '../errors'
import { parseOptions } from '../parse-options'
import { resolveImportLimits, type ImportLimits } from '../transfer/import-limits'
import { appendedRow } from './appended-row'
import { assignSeqs, prepareEntries, type PreparedEntry } from './prepare-entries'
import type { ThreadBackend } from './thread-backend'
import { checkThreadLimits } from './thread-limits'
import { newThreadRow, parseRecordChanges, parseUpdateOptions, recordFieldReaders, updatedRow } from './thread-record'
import type { CreateThreadRecordOptions, ForkThreadOptions, ImportThreadOptions, ThreadStore, ThreadStoreOptions } from './thread-store'
import { reportUnreadable, warnUnreadable } from './unreadable-entry'
import { sameTabDelivery } from './same-tab-delivery'

const isFunction = (value: unknown): boolean => typeof value === 'function'

const counterReader = custom<CounterSource>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    ((typeof (value as TokenCounter).id === 'string' && typeof (value as TokenCounter).countEntry === 'function') ||
      typeof (value as PromiseLike<unknown>).then === 'function'),
  'a counter is a TokenCounter from createTokenCounter() or customTokenCounter(), or its promise',
)

export const threadStoreOptionsReader = object<ThreadStoreOptions>({
  counters: optional(array(counterReader)),
  now: optional(custom<() => number>(isFunction)),
  createId: optional(custom<() => string>(isFunction)),
  // An object here; its fields are checked by `resolveImportLimits`.
  importLimits: optional(
    record(
      string(),
      custom(() => true),
    ) as Reader<Partial<ImportLimits>>,
  ),
  onUnreadableEntry: optional(custom<(error: UnreadableEntryError) => void>(isFunction)),
})

export const createOptionsReader = object<CreateThreadRecordOptions>({
  id: optional(string()),
  ...recordFieldReaders,
})

/** The resolved options a thread store works from. */
export interface ResolvedThreadStoreOptions {
  /** The counters ready now: a promise still pending counts nothing yet (estimates are never stored). */
  readyCounters(): readonly TokenCounter[]
  readonly now: () => number
  readonly createId: () => string
  readonly onUnreadableEntry: (error: UnreadableEntryError) => void
}

export function resolveThreadStoreOptions(options: ThreadStoreOptions): ResolvedThreadStoreOptions {
  const parsed = parseOptions(threadStoreOptionsReader, options, 'thread store options')
  const sources = parsed.counters ?? []
  return {
    readyCounters: () => sources.map((source) => counterNow(source)).filter((counter) => estimatedEncoding(counter) === undefined),
    now: parsed.now ?? Date.now,
    createId: parsed.createId ?? (() => globalThis.crypto.randomUUID()),
    onUnreadableEntry: parsed.onUnreadableEntry ?? warnUnreadable,
  }
}

/** Entries whose recall terms are restored in one task (a few tens of milliseconds). */
const RESTORE_SLICE = 2_000

/** The error for the one constraint a caller can hit: a thread id that is taken. */
export function threadIdTaken(threadId: string, operation: string, cause?: unknown): StorageError {
  return new StorageError(
    'constraint',
    operation,
    `A thread "${threadId}" already exists; pick another id (or leave it out for a random one).`,
    cause === undefined ? undefined : { cause },
  )
}

/** A core `Thread` over stored entries (whole, or a window starting past seq 0). */
export function toThread(row: ThreadRow, entries: readonly Entry[], now: () => number, createId: () => string): Thread {
  return createThread({
    id: row.id,
    entries,
    now,
    createId,
    ...(row.parent === null ? {} : { parent: row.parent }),
  })
}

/**
 * The thread store API over a backend's storage: option and input validation, gapless seqs,
 * tool-call pairing, import limits, records, fork and import/export are the same for IndexedDB
 * and the in-memory fallback because they live here once. Fork, import and export load their
 * code when first called: an app that only reads and appends (a chat's first screen) does not
 * download the file parsers (about 6 KB gzip with core's OpenAI-format reader).
 */
// long: one object of short ThreadStore methods over the shared backend and settings, each a line or a few;
// the methods with logic of their own live in fork-thread.ts, import-thread.ts, export-thread.ts and place-synced.ts.
export function threadStoreOnBackend(backend: ThreadBackend, options: ThreadStoreOptions = {}): ThreadStore {
  const settings = { ...resolveThreadStoreOptions(options), importLimits: resolveImportLimits(options.importLimits) }
  const { readyCounters, now, createId, onUnreadableEntry, importLimits } = settings
  const sameTab = sameTabDelivery()

  const appendPrepared = async (rawThreadId: string, prepared: readonly PreparedEntry[], operation: string): Promise<readonly Entry[]> => {
    const threadId = toThreadId(rawThreadId)
    const time = now()
    const entries = await backend.append(
      threadId,
      prepared,
      operation,
      time,
      (row, stored) => {
        const assigned = assignSeqs(threadId, prepared, row.lastSeq + 1, stored)
        if (assigned.length === 0) return { entries: assigned, row }
        const next = appendedRow(row, assigned, time)
        checkThreadLimits(next, importLimits)
        return { entries: assigned, row: next }
      },
      (committed) => sameTab.committed(threadId, committed),
    )
    // Already handed over at the commit itself when the backend could (IndexedDB); a subscriber gets each entry once.
    sameTab.committed(threadId, entries)
    return entries
  }

  const store: ThreadStore = {
    persistent: backend.persistent,
    importLimits,

    async create(createOptions?: CreateThreadRecordOptions) {
      const { id: givenId, ...fields } = parseOptions(createOptionsReader, createOptions ?? {}, 'create options')
      const row = newThreadRow(toThreadId(givenId ?? createId()), fields, now())
      await backend.insert(row, [], 'create')
      return toThreadRecord(row)
    },

    async get(threadId) {
      const row = await backend.getRow(threadId, 'get')
      return row === undefined ? undefined : toThreadRecord(row)
    },

    async append(threadId, input) {
      backend.assertWorking('append')
      const [entry] = await appendPrepared(threadId, prepareEntries([input], { counters: readyCounters(), now: now(), createId }), 'append')
      return entry as Entry
    },

    async appendMany(threadId, inputs) {
      backend.assertWorking('appendMany')
      return appendPrepared(threadId, prepareEntries(inputs, { counters: readyCounters(), now: now(), createId }), 'appendMany')
    },

    async placeSynced(threadId, keep, entries) {
      const { placeSynced } = await import('./place-synced')
      return placeSynced(backend, settings, (id, committed) => sameTab.committed(id, committed), threadId, keep, entries)
    },

    async load(threadId, loadOptions = {}) {
      const { row, entries } = await backend.read(toThreadId(threadId), 'load', loadOptions.window)
      reportUnreadable(entries, 'load', onUnreadableEntry)
      return toThread(row, entries, now, createId)
    },

    async entriesFrom(threadId, fromSeq) {
      if (!Number.isSafeInteger(fromSeq) || fromSeq < 0)
        throw new InvalidEntryError('fromSeq', `fromSeq must be an integer ≥ 0, got ${String(fromSeq)}`)
      const entries = await backend.readFrom(toThreadId(threadId), fromSeq, 'entriesFrom')
      reportUnreadable(entries, 'entriesFrom', onUnreadableEntry)
      return entries
    },

    async recallIndex(threadId, indexOptions) {
      const [{ createRecallIndex, InvalidRecallTermsError }, rows] = await Promise.all([
        import('@threadlens/core/recall'),
        backend.recallTerms(toThreadId(threadId), 'recallIndex'),
      ])
      const index = createRecallIndex(indexOptions)
      try {
        // In slices, each in a task of its own: a long thread's index does not freeze the page while it is made.
        for (let start = 0; start < rows.length; start += RESTORE_SLICE) {
          if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0))
          index.restore(threadId, rows.slice(start, start + RESTORE_SLICE))
        }
      } catch (error) {
        // Rows that do not make an index leave it empty: the first projection builds it from the entries.
        if (!InvalidRecallTermsError.isInstance(error)) throw error
      }
      return index
    },

    async list() {
      return (await backend.listRows('list')).map(toThreadRecord)
    },

    async update(threadId, changes, updateOptions) {
      const parsed = parseRecordChanges(changes)
      const checked = parseUpdateOptions(updateOptions)
      const time = now()
      const row = await backend.updateRow(toThreadId(threadId), 'update', (current) => {
        const next = updatedRow(current, parsed, checked, time)
        checkThreadLimits(next, importLimits)
        return next
      })
      return toThreadRecord(row)
    },

    async rename(threadId, title, updateOptions) {
      return store.update(threadId, { title }, updateOptions)
    },

    subscribeList(listener) {
      return backend.subscribeList(listener)
    },

    async fork(threadId, forkOptions: ForkThreadOptions) {
      const { forkThread } = await import('./fork-thread')
      return forkThread(backend, settings, threadId, forkOptions)
    },

    async delete(threadId) {
      await backend.delete(toThreadId(threadId))
    },

    async eraseAll() {
      await backend.eraseAll()
    },

    subscribe(threadId, listener, subscribeOptions) {
      return sameTab.subscribe(toThreadId(threadId), listener, subscribeOptions?.afterSeq, (heard, delivered) =>
        backend.subscribe(threadId, heard, subscribeOptions, (entries) => reportUnreadable(entries, 'subscribe', onUnreadableEntry), delivered),
      )
    },

    async export(threadId) {
      const { exportThread } = await import('./export-thread')
      return exportThread(backend, toThreadId(threadId), onUnreadableEntry)
    },

    async import(input, importOptions?: ImportThreadOptions) {
      const { importThread } = await import('./import-thread')
      return importThread(backend, settings, input, importOptions)
    },
  }
  return store
}
