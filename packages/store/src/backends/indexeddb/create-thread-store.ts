import type { Entry } from '@threadlens/core'
import type { TokenCalibration } from '@threadlens/core/calls'
import { problemIssue, read } from '@threadlens/core/internal'
import { threadRowReader, toThreadRecord, type AttachmentRow, type RecallTermsChunk, type ThreadRow } from '../../rows'
import { deleteThreadAttachments } from './create-attachment-store'
import { referencedAttachmentIds } from '../../transfer/thread-file-format'
import type { ThreadlensDB } from './threadlens-db'
import { calibrationSamplesOf, calibrationUpdates } from './create-call-log'
import { StorageError, ThreadNotFoundError } from '../../errors'
import { storageErrorCode } from '../../storage-error-codes'
import { readEntries } from './entry-reads'
import { toolCallIdsOf, type StoredToolIds } from '../../threads/prepare-entries'
import { subscribeThread } from './subscribe-thread'
import { subscribeThreadList } from './subscribe-thread-list'
import type { ThreadBackend } from '../../threads/thread-backend'
import { threadIdTaken, threadStoreOnBackend } from '../../threads/thread-store-on-backend'
import type { ThreadStore, ThreadStoreOptions } from '../../threads/thread-store'
import { loadWindowEntries, readWindowFirstPage } from './windowed-load'

/** The clearer error for a taken id; any other failure as it is. */
function alreadyExists(error: unknown, threadId: string, operation: string): unknown {
  if (storageErrorCode(error) !== 'constraint' && !(StorageError.isInstance(error) && error.code === 'constraint')) return error
  return threadIdTaken(threadId, operation, error)
}

type RecallTermsModule = typeof import('./recall-terms')
let recallTermsModule: Promise<RecallTermsModule> | undefined
let loadedRecallTerms: RecallTermsModule | undefined

/**
 * The recall-terms code (the term rules and their stop words), loaded by the first
 * `threads.recallIndex()`: an app that never recalls does not download it. Once it is loaded,
 * every write keeps its entries' terms in its own transaction; entries written before (or by a
 * tab that has not loaded it) get theirs when their thread's index is next read.
 */
function recallTerms(): Promise<RecallTermsModule> {
  recallTermsModule ??= import('./recall-terms').then(
    (module) => (loadedRecallTerms = module),
    (error: unknown) => {
      recallTermsModule = undefined
      throw error
    },
  )
  return recallTermsModule
}

/** The chunk rows to write with `entries`: none until the recall-terms code is loaded. */
function termChunks(last: RecallTermsChunk | undefined, entries: readonly Entry[]): RecallTermsChunk[] {
  return loadedRecallTerms === undefined ? [] : loadedRecallTerms.recallTermsChunks(last, entries)
}

function checkRow(raw: unknown, threadId: string, operation: string): ThreadRow {
  const checked = read(threadRowReader, raw)
  if (!checked.ok) {
    // The cause names the broken field and rule (`{ path, message }`), for whoever reports it.
    throw new StorageError(
      'invalid-data',
      operation,
      `The record of thread "${threadId}" is damaged in storage; export what is readable and report it.`,
      {
        cause: problemIssue(checked.problem),
      },
    )
  }
  return checked.value
}

// long: one object literal of the ThreadBackend methods over a closure, each method one short IndexedDB transaction; split up, the interface would only be scattered.
/**
 * Threads in a threadlens database. Every write is one IndexedDB transaction that awaits nothing
 * but IndexedDB: an append reads the thread's row (its last seq) and adds the entries at seq + 1,
 * so seq stays gapless and unique with any number of tabs appending at once.
 */
export function indexedDbThreadBackend(db: ThreadlensDB): ThreadBackend {
  const readRow = async (threadId: string, operation: string): Promise<ThreadRow> => {
    const raw = await db.threads.get(threadId)
    if (raw === undefined) throw new ThreadNotFoundError(threadId, operation)
    return checkRow(raw, threadId, operation)
  }

  const storedToolIds = async (threadId: string, ids: readonly string[]): Promise<StoredToolIds> => {
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

  return {
    persistent: true,
    assertWorking: (operation) => db.assertWorking(operation),

    getRow: (threadId, operation) =>
      db.run(operation, () =>
        db.transaction('r', [db.threads, db.meta], async () => {
          await db.checkSentinel(operation)
          const raw = await db.threads.get(threadId)
          return raw === undefined ? undefined : checkRow(raw, threadId, operation)
        }),
      ),

    listRows: (operation) =>
      db.run(operation, () =>
        db.transaction('r', [db.threads, db.meta], async () => {
          await db.checkSentinel(operation)
          const rows = await db.threads.orderBy('updatedAt').reverse().toArray()
          return rows.map((raw) => checkRow(raw, raw.id, operation))
        }),
      ),

    async insert(row, entries, operation, attachments = []) {
      await db
        .run(operation, () =>
          db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.attachments, db.attachmentRefs, db.meta], async () => {
            await db.checkSentinel(operation)
            await db.threads.add(row)
            if (entries.length > 0) await Promise.all([db.entries.bulkAdd([...entries]), db.recallTerms.bulkPut(termChunks(undefined, entries))])
            // Bytes are kept once, by hash: an attachment another thread already holds is not written again.
            const present = await db.attachments.bulkGet(attachments.map((attachment) => attachment.id))
            const missing = attachments.filter((_attachment, position) => present[position] === undefined)
            if (missing.length > 0) await db.attachments.bulkAdd(missing)
            if (attachments.length > 0)
              await db.attachmentRefs.bulkPut(attachments.map((attachment) => ({ attachmentId: attachment.id, threadId: row.id })))
          }),
        )
        .catch((error: unknown) => {
          throw alreadyExists(error, row.id, operation)
        })
    },

    async append(threadId, prepared, operation, time, plan, onCommitted) {
      const ids = toolCallIdsOf(prepared)
      const samples = calibrationSamplesOf(prepared.map((each) => each.meta))
      let written: readonly TokenCalibration[] = []
      const appended = await db.run(operation, () =>
        db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.calibrations, db.meta], async () => {
          // Every read at once and every write at once: IndexedDB runs them in order, and each await
          // would add a round trip to the browser's storage process to every append.
          const [, row, stored, calibrations, lastChunk] = await Promise.all([
            db.checkSentinel(operation),
            readRow(threadId, operation),
            storedToolIds(threadId, ids),
            // An answered call's usage calibrates its model in the same write: one transaction per model call.
            calibrationUpdates(db, samples, time),
            loadedRecallTerms?.lastRecallChunk(db, threadId),
          ])
          const { entries, row: next } = plan(row, stored)
          if (entries.length === 0) return entries
          if (onCommitted !== undefined) db.onCommitted(() => onCommitted(entries))
          db.markOwnAppend(threadId, next.lastSeq)
          // Recall's terms of each entry in the same write: an index restored later never misses an entry.
          await Promise.all([
            db.entries.bulkAdd([...entries]),
            db.recallTerms.bulkPut(termChunks(lastChunk, entries)),
            db.threads.put(next),
            ...calibrations.map((calibration) => db.calibrations.put(calibration)),
          ])
          written = calibrations
          return entries
        }),
      )
      // Only once committed: an aborted transaction wrote nothing.
      for (const calibration of written) db.recentCalibrations.set(`${calibration.model}\u0000${calibration.counter}`, calibration)
      return appended
    },

    // Only a sync places entries: its code loads on the first placement, not with every app's store.
    place: async (...args) => (await import('./place-entries')).placeEntries(db, { readRow, termChunks }, ...args),

    updateRow: (threadId, operation, change) =>
      db.run(operation, () =>
        db.transaction('rw', [db.threads, db.meta], async () => {
          await db.checkSentinel(operation)
          const next = change(await readRow(threadId, operation))
          await db.threads.put(next)
          return next
        }),
      ),

    readAttachments: (ids, operation) =>
      db.run(operation, () =>
        db.transaction('r', [db.attachments, db.meta], async () => {
          await db.checkSentinel(operation)
          const rows = await db.attachments.bulkGet([...ids])
          return rows.filter((attachment): attachment is AttachmentRow => attachment !== undefined)
        }),
      ),

    read: (threadId, operation, window) =>
      db.run(operation, () =>
        db.transaction('r', [db.threads, db.entries, db.meta], async () => {
          // A window's first page is asked with the row, not after it: one round trip to the storage less.
          const firstPage = window === undefined ? undefined : readWindowFirstPage(db, threadId)
          const [, row] = await Promise.all([db.checkSentinel(operation), readRow(threadId, operation)])
          const entries =
            window === undefined
              ? await readEntries(db, threadId, 0, row.lastSeq, operation)
              : await loadWindowEntries(db, row, window, operation, firstPage)
          return { row, entries }
        }),
      ),

    readFrom: (threadId, fromSeq, operation) =>
      db.run(operation, () =>
        db.transaction('r', [db.threads, db.entries, db.meta], async () => {
          const [, row] = await Promise.all([db.checkSentinel(operation), readRow(threadId, operation)])
          return fromSeq > row.lastSeq ? [] : readEntries(db, threadId, fromSeq, row.lastSeq, operation)
        }),
      ),

    async insertFrom(sourceId, operation, upTo, build) {
      let newId = ''
      return db
        .run(operation, () =>
          db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.attachmentRefs, db.meta], async () => {
            await db.checkSentinel(operation)
            const source = await readRow(sourceId, operation)
            const lastSeq = upTo(source)
            const { row, entries } = build(source, await readEntries(db, sourceId, 0, lastSeq, operation))
            newId = row.id
            await db.threads.add(row)
            await Promise.all([db.entries.bulkAdd([...entries]), db.recallTerms.bulkPut(termChunks(undefined, entries))])
            // The copies use the source's attachments: the new thread holds them too, so deleting the source keeps them.
            await db.attachmentRefs.bulkPut([...referencedAttachmentIds(entries)].map((attachmentId) => ({ attachmentId, threadId: row.id })))
            return row
          }),
        )
        .catch((error: unknown) => {
          throw alreadyExists(error, newId, operation)
        })
    },

    async delete(threadId) {
      await db.run('delete', () =>
        db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.attempts, db.attachments, db.attachmentRefs, db.meta], async () => {
          await db.checkSentinel('delete')
          // Images and files go with the last thread that uses them.
          await deleteThreadAttachments(db, threadId)
          await db.entries.where('[threadId+seq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true).delete()
          await db.recallTerms.where('[threadId+firstSeq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true).delete()
          // A thread's failed attempts are part of its history: erasing the thread erases them.
          await db.attempts
            .where('[threadId+id]')
            .between([threadId, db.dexieRuntime.minKey], [threadId, db.dexieRuntime.maxKey], true, true)
            .delete()
          await db.threads.delete(threadId)
        }),
      )
    },

    recallTerms: async (threadId, operation) =>
      (await recallTerms()).readRecallTerms(db, threadId, operation, (raw) => checkRow(raw, threadId, operation)),

    eraseAll: () => db.eraseDatabase(),

    subscribe: (threadId, listener, options, onRead, delivered) =>
      subscribeThread(db, threadId, listener, options, onRead, delivered, (raw) => toThreadRecord(checkRow(raw, raw.id, 'subscribe'))),

    subscribeList: (listener) => subscribeThreadList(db, listener, (raw) => toThreadRecord(checkRow(raw, raw.id, 'subscribeList'))),
  }
}

/** The thread store over a threadlens database. */
export function createThreadStore(db: ThreadlensDB, options: ThreadStoreOptions = {}): ThreadStore {
  return threadStoreOnBackend(indexedDbThreadBackend(db), options)
}
