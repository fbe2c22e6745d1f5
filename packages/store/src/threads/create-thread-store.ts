import {
  createThread,
  entryId,
  InvalidEntryError,
  jsonObjectSchema,
  threadId as toThreadId,
  type Entry,
  type Thread,
  type ThreadId,
  type TokenCounter,
} from '@threadlens/core'
import { z } from 'zod'
import type { TokenCalibration } from '@threadlens/core'
import { Dexie } from 'dexie'
import { threadRowSchema, toThreadRecord, type AttachmentRow, type ThreadRecord, type ThreadRow } from '../database/rows'
import { attachmentIdOf, base64ToBytes, bytesToBase64 } from '../attachments/attachment-store'
import { deleteThreadAttachments } from '../attachments/create-attachment-store'
import type { ThreadlensDB } from '../database/threadlens-db'
import { calibrationSamplesOf, calibrationUpdates } from '../calls/create-call-log'
import { ImportValidationError, StorageError, storageErrorCode, ThreadNotFoundError, type UnreadableEntryError } from '../errors'
import { parseOptions } from '../parse-options'
import { resolveImportLimits } from '../transfer/import-limits'
import { type AttachmentLine, importEntryError, type ParsedImport, parseImportInput, referencedAttachmentIds, serializeThread } from '../transfer/thread-jsonl'
import { readEntries } from './entry-reads'
import { checkThreadLimits, exportedBytes } from './thread-limits'
import { assignSeqs, prepareEntries, toolCallIdsOf, type PreparedEntry, type StoredToolIds } from './prepare-entries'
import { subscribeThread } from './subscribe-thread'
import { reportUnreadable, warnUnreadable } from './unreadable-entry'
import { emptyThreadFacts, foldThreadFacts } from './thread-facts'
import type { CreateThreadRecordOptions, ForkThreadOptions, ImportInput, ImportThreadOptions, LoadThreadOptions, ThreadStore, ThreadStoreOptions } from './thread-store'
import { loadWindowEntries } from './windowed-load'
import { newThreadRow, parseRecordChanges, parseUpdateOptions, recordFieldsOf, recordFieldsShape, updatedRow } from './thread-record'
import { subscribeThreadList } from './subscribe-thread-list'

const counterSchema = z.custom<TokenCounter>(
  (value) => typeof value === 'object' && value !== null && typeof (value as TokenCounter).id === 'string' && typeof (value as TokenCounter).countEntry === 'function',
  'a counter is a TokenCounter from createTokenCounter() or customTokenCounter()',
)

export const threadStoreOptionsSchema = z.strictObject({
  counters: z.array(counterSchema).exactOptional(),
  now: z.custom<() => number>((value) => typeof value === 'function').exactOptional(),
  createId: z.custom<() => string>((value) => typeof value === 'function').exactOptional(),
  importLimits: z.record(z.string(), z.unknown()).exactOptional(),
  onUnreadableEntry: z.custom<(error: UnreadableEntryError) => void>((value) => typeof value === 'function').exactOptional(),
})

const createOptionsSchema = z.strictObject({
  id: z.string().exactOptional(),
  ...recordFieldsShape,
})

const forkOptionsSchema = z.strictObject({
  atSeq: z.number().int().nonnegative(),
  id: z.string().exactOptional(),
  title: z.string().max(10_000).exactOptional(),
})

const importOptionsSchema = z.strictObject({
  title: recordFieldsShape.title,
  metadata: recordFieldsShape.metadata,
})

/** The resolved options both store implementations work from. */
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

export function parseCreateOptions(options: CreateThreadRecordOptions | undefined): z.infer<typeof createOptionsSchema> {
  return parseOptions(createOptionsSchema, options ?? {}, 'create options')
}
export function parseForkOptions(options: ForkThreadOptions): z.infer<typeof forkOptionsSchema> {
  return parseOptions(forkOptionsSchema, options, 'fork options')
}
export function parseImportOptions(options: ImportThreadOptions | undefined): z.infer<typeof importOptionsSchema> {
  return parseOptions(importOptionsSchema, options ?? {}, 'import options')
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

/** A clearer error for the one constraint a caller can hit: an id that is taken. */
export function alreadyExists(error: unknown, threadId: string, operation: string): unknown {
  if (storageErrorCode(error) !== 'constraint' && !(error instanceof StorageError && error.code === 'constraint')) return error
  return new StorageError('constraint', operation, `A thread "${threadId}" already exists; pick another id (or leave it out for a random one).`, { cause: error })
}

function checkRow(raw: unknown, threadId: string, operation: string): ThreadRow {
  const parsed = threadRowSchema.safeParse(raw)
  if (!parsed.success) {
    throw new StorageError('invalid-data', operation, `The record of thread "${threadId}" is damaged in storage; export what is readable and report it.`, {
      cause: parsed.error,
    })
  }
  return parsed.data
}

/**
 * The thread store over a threadlens database. Every write is one IndexedDB transaction that
 * awaits nothing but IndexedDB: an append reads the thread's row (its last seq) and adds the
 * entries at seq + 1, so seq stays gapless and unique with any number of tabs appending at once.
 */
export function createThreadStore(db: ThreadlensDB, options: ThreadStoreOptions = {}): ThreadStore {
  const { counters, now, createId, onUnreadableEntry } = resolveThreadStoreOptions(options)
  const importLimits = resolveImportLimits(options.importLimits)

  const readRow = async (threadId: string, operation: string): Promise<ThreadRow> => {
    const raw = await db.threads.get(threadId)
    if (raw === undefined) throw new ThreadNotFoundError(threadId, operation)
    return checkRow(raw, threadId, operation)
  }

  const storedToolIds = async (threadId: ThreadId, ids: readonly string[]): Promise<StoredToolIds> => {
    const calls = new Set<string>()
    const results = new Set<string>()
    if (ids.length === 0) return { calls, results }
    const keys = ids.flatMap((id) => [
      [threadId, 'tool_call', id],
      [threadId, 'tool_result', id],
    ])
    const found = (await db.entries.where('[threadId+kind+refs.toolCallId]').anyOf(keys).keys()) as unknown as [string, string, string][]
    for (const [, kind, id] of found) (kind === 'tool_call' ? calls : results).add(id)
    return { calls, results }
  }

  const appendPrepared = async (rawThreadId: string, prepared: readonly PreparedEntry[], operation: string): Promise<Entry[]> => {
    const threadId = toThreadId(rawThreadId)
    const time = now()
    const ids = toolCallIdsOf(prepared)
    const samples = calibrationSamplesOf(prepared.map((each) => each.meta))
    let written: readonly TokenCalibration[] = []
    const appended = await db.run(operation, () =>
      db.transaction('rw', [db.threads, db.entries, db.calibrations, db.meta], async () => {
        // Every read at once and every write at once: IndexedDB runs them in order, and each await
        // would add a round trip to the browser's storage process to every append.
        const [, row, stored, calibrations] = await Promise.all([
          db.checkSentinel(operation),
          readRow(threadId, operation),
          storedToolIds(threadId, ids),
          // An answered call's usage calibrates its model in the same write: one transaction per model call.
          calibrationUpdates(db, samples, time),
        ])
        const entries = assignSeqs(threadId, prepared, row.lastSeq + 1, stored)
        if (entries.length === 0) return entries
        const next = appendedRow(row, entries, time)
        checkThreadLimits(next, importLimits)
        await Promise.all([db.entries.bulkAdd(entries), db.threads.put(next), ...calibrations.map((calibration) => db.calibrations.put(calibration))])
        written = calibrations
        return entries
      }),
    )
    // Only once committed: an aborted transaction wrote nothing.
    for (const calibration of written) db.recentCalibrations.set(`${calibration.model}\u0000${calibration.counter}`, calibration)
    return appended
  }

  const store: ThreadStore = {
    persistent: true,
    importLimits,

    async create(createOptions) {
      const parsed = parseCreateOptions(createOptions)
      const { id: givenId, ...fields } = parsed
      const row = newThreadRow(toThreadId(givenId ?? createId()), fields, now())
      await db
        .run('create', () =>
          db.transaction('rw', [db.threads, db.meta], async () => {
            await db.checkSentinel('create')
            await db.threads.add(row)
          }),
        )
        .catch((error: unknown) => {
          throw alreadyExists(error, row.id, 'create')
        })
      return toThreadRecord(row)
    },

    async get(threadId) {
      return db.run('get', () =>
        db.transaction('r', [db.threads, db.meta], async () => {
          await db.checkSentinel('get')
          const raw = await db.threads.get(threadId)
          return raw === undefined ? undefined : toThreadRecord(checkRow(raw, threadId, 'get'))
        }),
      )
    },

    async append(threadId, input) {
      db.assertWorking('append')
      const prepared = prepareEntries([input], { counters, now: now(), createId })
      const [entry] = await appendPrepared(threadId, prepared, 'append')
      return entry as Entry
    },

    async appendMany(threadId, inputs) {
      db.assertWorking('appendMany')
      const prepared = prepareEntries(inputs, { counters, now: now(), createId })
      return appendPrepared(threadId, prepared, 'appendMany')
    },

    async load(rawThreadId, loadOptions: LoadThreadOptions = {}) {
      const threadId = toThreadId(rawThreadId)
      const { row, entries } = await db.run('load', () =>
        db.transaction('r', [db.threads, db.entries, db.meta], async () => {
          await db.checkSentinel('load')
          const found = await readRow(threadId, 'load')
          const read =
            loadOptions.window === undefined
              ? await readEntries(db, threadId, 0, found.lastSeq, 'load')
              : await loadWindowEntries(db, found, loadOptions.window, 'load')
          return { row: found, entries: read }
        }),
      )
      reportUnreadable(entries, 'load', onUnreadableEntry)
      return toThread(row, entries, now, createId)
    },

    async list() {
      return db.run('list', () =>
        db.transaction('r', [db.threads, db.meta], async () => {
          await db.checkSentinel('list')
          const rows = await db.threads.orderBy('updatedAt').reverse().toArray()
          return rows.map((raw) => toThreadRecord(checkRow(raw, raw.id, 'list')))
        }),
      )
    },

    async update(rawThreadId, changes, updateOptions) {
      const threadId = toThreadId(rawThreadId)
      const parsed = parseRecordChanges(changes)
      const checked = parseUpdateOptions(updateOptions)
      const time = now()
      return db.run('update', () =>
        db.transaction('rw', [db.threads, db.meta], async () => {
          await db.checkSentinel('update')
          const next = updatedRow(await readRow(threadId, 'update'), parsed, checked, time)
          checkThreadLimits(next, importLimits)
          await db.threads.put(next)
          return toThreadRecord(next)
        }),
      )
    },

    async rename(threadId, title, updateOptions) {
      return store.update(threadId, { title }, updateOptions)
    },

    subscribeList(listener) {
      return subscribeThreadList(db, listener, (raw) => toThreadRecord(checkRow(raw, raw.id, 'subscribeList')))
    },

    async fork(rawThreadId, forkOptions) {
      const parsed = parseForkOptions(forkOptions)
      const parentId = toThreadId(rawThreadId)
      const childId = toThreadId(parsed.id ?? createId())
      const time = now()
      return db
        .run('fork', () =>
          db.transaction('rw', [db.threads, db.entries, db.attachmentRefs, db.meta], async () => {
            await db.checkSentinel('fork')
            const parent = await readRow(parentId, 'fork')
            if (parsed.atSeq > parent.lastSeq) {
              throw new InvalidEntryError('atSeq', `atSeq must be an existing seq (0..${parent.lastSeq}), got ${parsed.atSeq}`)
            }
            const copies = (await readEntries(db, parentId, 0, parsed.atSeq, 'fork')).map(
              (entry) => ({ ...entry, id: entryId(createId()), threadId: childId }) as Entry,
            )
            const child: ThreadRow = {
              ...appendedRow(newThreadRow(childId, { ...recordFieldsOf(parent), title: parsed.title ?? parent.title }, time), copies, time),
              parent: { threadId: parentId, atSeq: parsed.atSeq },
            }
            await db.threads.add(child)
            await db.entries.bulkAdd(copies)
            // The copies use the parent's attachments: the child holds them too, so deleting the parent keeps them.
            await db.attachmentRefs.bulkPut([...referencedAttachmentIds(copies)].map((attachmentId) => ({ attachmentId, threadId: childId })))
            return toThreadRecord(child)
          }),
        )
        .catch((error: unknown) => {
          throw alreadyExists(error, childId, 'fork')
        })
    },

    async delete(threadId) {
      await db.run('delete', () =>
        db.transaction('rw', [db.threads, db.entries, db.attempts, db.attachments, db.attachmentRefs, db.meta], async () => {
          await db.checkSentinel('delete')
          // Images and files go with the last thread that uses them.
          await deleteThreadAttachments(db, threadId)
          await db.entries.where('[threadId+seq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true).delete()
          // A thread's failed attempts are part of its history: erasing the thread erases them.
          await db.attempts.where('[threadId+id]').between([threadId, Dexie.minKey], [threadId, Dexie.maxKey], true, true).delete()
          await db.threads.delete(threadId)
        }),
      )
    },

    async eraseAll() {
      await db.eraseDatabase()
    },

    subscribe(threadId, listener, subscribeOptions) {
      return subscribeThread(db, threadId, listener, subscribeOptions, (entries) => reportUnreadable(entries, 'subscribe', onUnreadableEntry))
    },

    async export(rawThreadId) {
      const threadId = toThreadId(rawThreadId)
      const { row, entries, attachments } = await db.run('export', () =>
        db.transaction('r', [db.threads, db.entries, db.attachments, db.meta], async () => {
          await db.checkSentinel('export')
          const found = await readRow(threadId, 'export')
          const read = await readEntries(db, threadId, 0, found.lastSeq, 'export')
          const rows = await db.attachments.bulkGet([...referencedAttachmentIds(read)])
          return { row: found, entries: read, attachments: rows.filter((attachment): attachment is AttachmentRow => attachment !== undefined) }
        }),
      )
      reportUnreadable(entries, 'export', onUnreadableEntry)
      return serializeThread(toThreadRecord(row), entries, await attachmentLines(attachments))
    },

    async import(input: ImportInput, importOptions?: ImportThreadOptions) {
      db.assertWorking('import')
      const parsedOptions = parseImportOptions(importOptions)
      // Everything is validated and counted before the one write transaction.
      const parsed = await parseImportInput(input, importLimits)
      const threadId = toThreadId(createId())
      const time = now()
      const describeError = (error: unknown, offset: number): unknown => importEntryError(error, parsed, offset)
      const prepared = prepareEntries(parsed.inputs, { counters, now: time, createId, dropGivenTokens: true, describeError })
      const entries = assignSeqs(threadId, prepared, 0, { calls: new Set(), results: new Set() }, describeError, true)
      const row = appendedRow(
        newThreadRow(threadId, { ...parsed.fields, title: parsedOptions.title ?? parsed.fields.title, metadata: { ...parsed.fields.metadata, ...parsedOptions.metadata } }, time),
        entries,
        time,
      )
      const attachments = await importedAttachmentRows(parsed, time)
      await db.run('import', () =>
        db.transaction('rw', [db.threads, db.entries, db.attachments, db.attachmentRefs, db.meta], async () => {
          await db.checkSentinel('import')
          await db.threads.add(row)
          await db.entries.bulkAdd(entries)
          for (const attachment of attachments) if ((await db.attachments.get(attachment.id)) === undefined) await db.attachments.add(attachment)
          await db.attachmentRefs.bulkPut(attachments.map((attachment) => ({ attachmentId: attachment.id, threadId })))
        }),
      )
      return threadId
    },
  }
  return store
}

/** Attachment rows as export lines (bytes in base64). */
export async function attachmentLines(rows: readonly AttachmentRow[]): Promise<AttachmentLine[]> {
  const lines: AttachmentLine[] = []
  for (const row of rows) {
    const data = bytesToBase64(new Uint8Array(await row.blob.arrayBuffer()))
    const { id, mediaType, bytes, width, height } = row
    lines.push({ attachment: { id, mediaType, bytes, ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }), data } })
  }
  return lines
}

/** An import's attachment lines as rows, each checked against its id (the SHA-256 of its bytes) and size. */
export async function importedAttachmentRows(parsed: ParsedImport, time: number): Promise<AttachmentRow[]> {
  const rows: AttachmentRow[] = []
  for (const { line, id, mediaType, bytes, width, height, data } of parsed.attachments ?? []) {
    let decoded: Uint8Array
    try {
      decoded = base64ToBytes(data)
    } catch (error) {
      throw new ImportValidationError(line, 'attachment.data', 'data must be base64', { cause: error })
    }
    if (decoded.length !== bytes) throw new ImportValidationError(line, 'attachment.bytes', `the data holds ${decoded.length} bytes, not ${bytes}`)
    const copy = new Uint8Array(decoded)
    if ((await attachmentIdOf(copy.buffer)) !== id) throw new ImportValidationError(line, 'attachment.id', `the data's SHA-256 is not ${id} (a damaged or edited file)`)
    rows.push({ id, blob: new Blob([copy], { type: mediaType }), mediaType, bytes, ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }), createdAt: time })
  }
  return rows
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

