import type { Entry } from '@threadlens/core'
import { entryRecallTerms, RECALL_TERMS_VERSION } from '@threadlens/core/internal'
import type { RecallTermsRow } from '@threadlens/core/recall'
import type { RecallTermsRowStored, ThreadRow } from '../database/rows'
import type { ThreadlensDB } from '../database/threadlens-db'
import { StorageError, ThreadNotFoundError } from '../errors'
import { readEntries } from './entry-reads'

/** The `recallTerms` row of an entry: written in the transaction that writes the entry. */
export function recallTermsRow(entry: Entry): RecallTermsRowStored {
  const terms = entryRecallTerms(entry)
  return { threadId: entry.threadId, seq: entry.seq, id: entry.id, terms: terms === undefined ? null : terms.join(' '), version: RECALL_TERMS_VERSION }
}

/** A stored row as `RecallIndex.restore` takes it; `undefined` for a row that is damaged or of another version. */
function restorable(raw: unknown, threadId: string, seq: number): RecallTermsRow | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const row = raw as Partial<RecallTermsRowStored>
  if (row.threadId !== threadId || row.seq !== seq || typeof row.id !== 'string' || row.version !== RECALL_TERMS_VERSION) return undefined
  if (row.terms !== null && typeof row.terms !== 'string') return undefined
  return { threadId, seq, id: row.id, terms: row.terms === null ? null : row.terms === '' ? [] : row.terms.split(' '), version: row.version }
}

/** The entries in the rows that are missing, damaged or of another version, for `lastSeq + 1` entries. */
function missingSeqs(rows: readonly (RecallTermsRow | undefined)[], lastSeq: number): number[] {
  const missing: number[] = []
  for (let seq = 0; seq <= lastSeq; seq++) if (rows[seq] === undefined) missing.push(seq)
  return missing
}

/**
 * A thread's recall terms, one row per entry from seq 0, ready for `RecallIndex.restore`. Rows a
 * thread lacks (entries stored before the table existed, a row written by another version, one
 * damaged) are worked out from their entries and written back in the same transaction, so each is
 * worked out once; a thread with all its rows is read without a write.
 */
export async function readRecallTerms(db: ThreadlensDB, threadId: string, operation: string, checkRow: (raw: unknown) => ThreadRow): Promise<RecallTermsRow[]> {
  const read = async (): Promise<{ lastSeq: number; rows: (RecallTermsRow | undefined)[] }> => {
    const [, raw, stored] = await Promise.all([
      db.checkSentinel(operation),
      db.threads.get(threadId),
      db.recallTerms.where('[threadId+seq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true).toArray(),
    ])
    if (raw === undefined) throw new ThreadNotFoundError(threadId, operation)
    const lastSeq = checkRow(raw).lastSeq
    const rows: (RecallTermsRow | undefined)[] = new Array(lastSeq + 1).fill(undefined)
    for (const row of stored) if (row.seq >= 0 && row.seq <= lastSeq) rows[row.seq] = restorable(row, threadId, row.seq)
    return { lastSeq, rows }
  }
  const first = await db.run(operation, () => db.transaction('r', [db.threads, db.recallTerms, db.meta], read))
  if (missingSeqs(first.rows, first.lastSeq).length === 0) return first.rows as RecallTermsRow[]
  return db.run(operation, () =>
    db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.meta], async () => {
      // Read again with the write lock held: another tab may have appended (or filled the rows) in between.
      const { lastSeq, rows } = await read()
      const missing = missingSeqs(rows, lastSeq)
      const made: RecallTermsRowStored[] = []
      // Runs of missing seqs read as ranges: a thread stored before the table is one range.
      for (let start = 0; start < missing.length; ) {
        let end = start
        while (end + 1 < missing.length && (missing[end + 1] as number) === (missing[end] as number) + 1) end++
        for (const entry of await readEntries(db, threadId, missing[start] as number, missing[end] as number, operation)) {
          const row = recallTermsRow(entry)
          made.push(row)
          rows[entry.seq] = restorable(row, threadId, entry.seq)
        }
        start = end + 1
      }
      if (made.length > 0) await db.recallTerms.bulkPut(made)
      if (rows.some((row) => row === undefined)) throw new StorageError('invalid-data', operation, `The recall terms of thread "${threadId}" could not be worked out from its entries; export what is readable and report it.`)
      return rows as RecallTermsRow[]
    }),
  )
}
