import { InvalidEntryError, type Entry } from '@threadlens/core'
import { parseEntry } from '@threadlens/core/internal'
import { unreadablePlaceholder } from '../../threads/unreadable-entry'
import { StorageError } from '../../errors'
import type { ThreadlensDB } from './threadlens-db'

/**
 * Checks an entry read back from IndexedDB (another app version or a devtools edit may have
 * written it). An entry in the wrong place is damage the store cannot explain and throws; an entry
 * whose content breaks the entry rules is replaced by a placeholder (see `unreadablePlaceholder`)
 * so the rest of the thread still loads, exports and projects.
 */
export function checkStoredEntry(raw: unknown, threadId: string, seq: number, operation: string): Entry {
  if (raw === undefined) {
    throw new StorageError(
      'invalid-data',
      operation,
      `Entry ${seq} of thread "${threadId}" is missing in storage; export what is readable and report it.`,
    )
  }
  let entry: Entry
  try {
    entry = parseEntry(raw)
  } catch (error) {
    const problem = InvalidEntryError.isInstance(error) ? { field: error.field, rule: error.rule } : { field: '', rule: String(error) }
    return unreadablePlaceholder(raw, threadId, seq, problem)
  }
  if (entry.threadId !== threadId || entry.seq !== seq) {
    throw new StorageError(
      'invalid-data',
      operation,
      `Entry ${seq} of thread "${threadId}" is damaged in storage (wrong thread or seq); export what is readable and report it.`,
    )
  }
  return entry
}

/** Entries read and checked per IndexedDB request by `readEntries`. */
const readPageSize = 1000

/**
 * Entries `fromSeq..toSeq` (inclusive) of a thread, checked and in seq order. Call inside a
 * transaction. A long range is read in pages, all requested at once: each page is checked in the
 * task its request completes in, so loading a 10,000-entry thread is ten tasks of a few dozen
 * milliseconds, not one of half a second that freezes the page.
 */
export async function readEntries(db: ThreadlensDB, threadId: string, fromSeq: number, toSeq: number, operation: string): Promise<Entry[]> {
  if (toSeq < fromSeq) return []
  const pages: Promise<Entry[]>[] = []
  for (let pageStart = fromSeq; pageStart <= toSeq; pageStart += readPageSize) {
    const pageEnd = Math.min(toSeq, pageStart + readPageSize - 1)
    pages.push(
      db.entries
        .where('[threadId+seq]')
        .between([threadId, pageStart], [threadId, pageEnd], true, true)
        .toArray()
        .then((rows) => {
          if (rows.length !== pageEnd - pageStart + 1) {
            throw new StorageError(
              'invalid-data',
              operation,
              `Thread "${threadId}" is missing entries between seq ${pageStart} and ${pageEnd} in storage; export what is readable and report it.`,
            )
          }
          return rows.map((row, position) => checkStoredEntry(row, threadId, pageStart + position, operation))
        }),
    )
  }
  return (await Promise.all(pages)).flat()
}

/**
 * Up to `limit` entries with seq in `fromSeq..toSeq`, newest first, each checked only when the
 * caller reaches it (`entry(position)`, position 0 being `toSeq`): a walk that stops part way
 * through a page does not pay for checking the rest. Call inside a transaction.
 */
export async function readEntriesNewestFirst(
  db: ThreadlensDB,
  threadId: string,
  fromSeq: number,
  toSeq: number,
  limit: number,
  operation: string,
): Promise<NewestFirstPage> {
  const rows = toSeq < fromSeq ? [] : await readNewestRows(db, threadId, limit, fromSeq, toSeq)
  return newestFirstPage(rows, threadId, fromSeq, toSeq, operation)
}

/** Entries read newest first, checked one by one as the caller reaches them. */
export interface NewestFirstPage {
  readonly length: number
  /** Position 0 is the page's newest entry. */
  entry(position: number): Entry
}

/**
 * A page over stored rows of a thread read newest first from `toSeq` (its newest entry), keeping
 * those down to `fromSeq`: row `position` must be the entry at `toSeq - position`.
 */
export function newestFirstPage(rows: readonly unknown[], threadId: string, fromSeq: number, toSeq: number, operation: string): NewestFirstPage {
  const length = Math.max(0, Math.min(rows.length, toSeq - fromSeq + 1))
  return {
    length,
    entry: (position) => {
      if (position < 0 || position >= length) throw new RangeError(`no entry at position ${position} of ${length}`)
      return checkStoredEntry(rows[position], threadId, toSeq - position, operation)
    },
  }
}

/**
 * The newest `limit` stored rows of a thread between two seqs (default: all of them), unchecked:
 * with the default bounds a read that needs no thread row first, so it can be asked in the same
 * breath as the row. Marked handled: the caller awaits it, or not at all.
 */
export function readNewestRows(
  db: ThreadlensDB,
  threadId: string,
  limit: number,
  fromSeq = 0,
  toSeq = Number.POSITIVE_INFINITY,
): Promise<readonly unknown[]> {
  const rows: Promise<readonly unknown[]> = db.entries
    .where('[threadId+seq]')
    .between([threadId, fromSeq], [threadId, toSeq], true, true)
    .reverse()
    .limit(limit)
    .toArray()
  rows.catch(() => undefined)
  return rows
}
