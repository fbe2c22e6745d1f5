import { createThread, InvalidEntryError, type Entry, type Thread, type TokenCounter } from '@threadlens/core'
import { entryId, threadId as toThreadId } from '@threadlens/core/internal'
import { z } from 'zod/mini'
import { toThreadRecord, type ThreadRow } from '../database/rows'
import { StorageError, type UnreadableEntryError } from '../errors'
import { parseOptions } from '../parse-options'
import { resolveImportLimits } from '../transfer/import-limits'
import { importEntryError, parseImportInput } from '../transfer/thread-jsonl'
import { referencedAttachmentIds, serializeThread } from '../transfer/thread-file-format'
import { attachmentLines, importedAttachmentRows } from '../attachments/attachment-lines'
import { assignSeqs, prepareEntries, type PreparedEntry } from './prepare-entries'
import type { ThreadBackend } from './thread-backend'
import { foldThreadFacts } from './thread-facts'
import { checkThreadLimits, exportedBytes } from './thread-limits'
import { newThreadRow, parseRecordChanges, parseUpdateOptions, recordFieldsOf, recordFieldsShape, updatedRow } from './thread-record'
import type { CreateThreadRecordOptions, ForkThreadOptions, ImportThreadOptions, ThreadStore, ThreadStoreOptions } from './thread-store'
import { reportUnreadable, warnUnreadable } from './unreadable-entry'

const counterSchema = z.custom<TokenCounter>(
  (value) => typeof value === 'object' && value !== null && typeof (value as TokenCounter).id === 'string' && typeof (value as TokenCounter).countEntry === 'function',
  'a counter is a TokenCounter from createTokenCounter() or customTokenCounter()',
)

export const threadStoreOptionsSchema = z.strictObject({
  counters: z.exactOptional(z.array(counterSchema)),
  now: z.exactOptional(z.custom<() => number>((value) => typeof value === 'function')),
  createId: z.exactOptional(z.custom<() => string>((value) => typeof value === 'function')),
  importLimits: z.exactOptional(z.record(z.string(), z.unknown())),
  onUnreadableEntry: z.exactOptional(z.custom<(error: UnreadableEntryError) => void>((value) => typeof value === 'function')),
})

const createOptionsSchema = z.strictObject({
  id: z.exactOptional(z.string()),
  ...recordFieldsShape,
})

const forkOptionsSchema = z.strictObject({
  atSeq: z.int().check(z.nonnegative()),
  id: z.exactOptional(z.string()),
  title: z.exactOptional(z.string().check(z.maxLength(10_000))),
})

const importOptionsSchema = z.strictObject({
  title: recordFieldsShape.title,
  metadata: recordFieldsShape.metadata,
})

/** The resolved options a thread store works from. */
export interface ResolvedThreadStoreOptions {
  readonly counters: readonly TokenCounter[]
  readonly now: () => number
  readonly createId: () => string
  readonly onUnreadableEntry: (error: UnreadableEntryError) => void
}

export function resolveThreadStoreOptions(options: ThreadStoreOptions): ResolvedThreadStoreOptions {
  const parsed = parseOptions(threadStoreOptionsSchema, options, 'thread store options')
  return {
    counters: parsed.counters ?? [],
    now: parsed.now ?? Date.now,
    createId: parsed.createId ?? (() => globalThis.crypto.randomUUID()),
    onUnreadableEntry: parsed.onUnreadableEntry ?? warnUnreadable,
  }
}

/** The row after entries were appended to it. */
export function appendedRow(row: ThreadRow, entries: readonly Entry[], now: number): ThreadRow {
  if (entries.length === 0) return row
  const lastSeq = row.lastSeq + entries.length
  return {
    ...row,
    lastSeq,
    entryCount: lastSeq + 1,
    updatedAt: Math.max(row.updatedAt, now),
    facts: foldThreadFacts(row.facts, entries),
    bytes: row.bytes + exportedBytes(entries),
  }
}

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
 * and the in-memory fallback because they live here once.
 */
export function threadStoreOver(backend: ThreadBackend, options: ThreadStoreOptions = {}): ThreadStore {
  const { counters, now, createId, onUnreadableEntry } = resolveThreadStoreOptions(options)
  const importLimits = resolveImportLimits(options.importLimits)

  const appendPrepared = (rawThreadId: string, prepared: readonly PreparedEntry[], operation: string): Promise<readonly Entry[]> => {
    const threadId = toThreadId(rawThreadId)
    const time = now()
    return backend.append(threadId, prepared, operation, time, (row, stored) => {
      const entries = assignSeqs(threadId, prepared, row.lastSeq + 1, stored)
      if (entries.length === 0) return { entries, row }
      const next = appendedRow(row, entries, time)
      checkThreadLimits(next, importLimits)
      return { entries, row: next }
    })
  }

  const store: ThreadStore = {
    persistent: backend.persistent,
    importLimits,

    async create(createOptions?: CreateThreadRecordOptions) {
      const { id: givenId, ...fields } = parseOptions(createOptionsSchema, createOptions ?? {}, 'create options')
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
      const [entry] = await appendPrepared(threadId, prepareEntries([input], { counters, now: now(), createId }), 'append')
      return entry as Entry
    },

    async appendMany(threadId, inputs) {
      backend.assertWorking('appendMany')
      return appendPrepared(threadId, prepareEntries(inputs, { counters, now: now(), createId }), 'appendMany')
    },

    async load(threadId, loadOptions = {}) {
      const { row, entries } = await backend.read(toThreadId(threadId), 'load', loadOptions.window)
      reportUnreadable(entries, 'load', onUnreadableEntry)
      return toThread(row, entries, now, createId)
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

    async fork(rawThreadId, forkOptions: ForkThreadOptions) {
      const parsed = parseOptions(forkOptionsSchema, forkOptions, 'fork options')
      const parentId = toThreadId(rawThreadId)
      const childId = toThreadId(parsed.id ?? createId())
      const time = now()
      const row = await backend.insertFrom(
        parentId,
        'fork',
        (parent) => {
          if (parsed.atSeq > parent.lastSeq) throw new InvalidEntryError('atSeq', `atSeq must be an existing seq (0..${parent.lastSeq}), got ${parsed.atSeq}`)
          return parsed.atSeq
        },
        (parent, entries) => {
          const copies = entries.map((entry) => ({ ...entry, id: entryId(createId()), threadId: childId }) as Entry)
          const child: ThreadRow = {
            ...appendedRow(newThreadRow(childId, { ...recordFieldsOf(parent), title: parsed.title ?? parent.title }, time), copies, time),
            parent: { threadId: parentId, atSeq: parsed.atSeq },
          }
          return { row: child, entries: copies }
        },
      )
      return toThreadRecord(row)
    },

    async delete(threadId) {
      await backend.delete(toThreadId(threadId))
    },

    async eraseAll() {
      await backend.eraseAll()
    },

    subscribe(threadId, listener, subscribeOptions) {
      return backend.subscribe(threadId, listener, subscribeOptions, (entries) => reportUnreadable(entries, 'subscribe', onUnreadableEntry))
    },

    async export(threadId) {
      const { row, entries } = await backend.read(toThreadId(threadId), 'export')
      reportUnreadable(entries, 'export', onUnreadableEntry)
      const attachments = await backend.readAttachments([...referencedAttachmentIds(entries)], 'export')
      return serializeThread(toThreadRecord(row), entries, await attachmentLines(attachments))
    },

    async import(input, importOptions?: ImportThreadOptions) {
      backend.assertWorking('import')
      const parsedOptions = parseOptions(importOptionsSchema, importOptions ?? {}, 'import options')
      // Everything is validated and counted before the one write.
      const parsed = await parseImportInput(input, importLimits)
      const threadId = toThreadId(createId())
      const time = now()
      const describeError = (error: unknown, offset: number): unknown => importEntryError(error, parsed, offset)
      const prepared = prepareEntries(parsed.inputs, { counters, now: time, createId, dropGivenTokens: true, describeError })
      const entries = assignSeqs(threadId, prepared, 0, { calls: new Set(), results: new Set() }, describeError, true)
      const fields = { ...parsed.fields, title: parsedOptions.title ?? parsed.fields.title, metadata: { ...parsed.fields.metadata, ...parsedOptions.metadata } }
      const attachments = await importedAttachmentRows(parsed, time)
      await backend.insert(appendedRow(newThreadRow(threadId, fields, time), entries, time), entries, 'import', attachments)
      return threadId
    },
  }
  return store
}
