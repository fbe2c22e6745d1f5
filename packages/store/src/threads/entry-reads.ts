import { InvalidEntryError, type Entry } from '@threadlens/core'
import { parseEntry } from '@threadlens/core/internal'
import { unreadablePlaceholder } from './unreadable-entry'
import { StorageError } from '../errors'
import type { ThreadlensDB } from '../database/threadlens-db'

/**
 * Checks an entry read back from IndexedDB (another app version or a devtools edit may have
 * written it). An entry in the wrong place is damage the store cannot explain and throws; an entry
 * whose content breaks the entry rules is replaced by a placeholder (see `unreadablePlaceholder`)
 * so the rest of the thread still loads, exports and projects.
 */
export function checkStoredEntry(raw: unknown, threadId: string, seq: number, operation: string): Entry {
  if (raw === undefined) {
    throw new StorageError('invalid-data', operation, `Entry ${seq} of thread "${threadId}" is missing in storage; export what is readable and report it.`)
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

/** Entries `fromSeq..toSeq` (inclusive) of a thread, checked and in seq order. Call inside a transaction. */
export async function readEntries(db: ThreadlensDB, threadId: string, fromSeq: number, toSeq: number, operation: string): Promise<Entry[]> {
  if (toSeq < fromSeq) return []
  const rows = await db.entries.where('[threadId+seq]').between([threadId, fromSeq], [threadId, toSeq], true, true).toArray()
  if (rows.length !== toSeq - fromSeq + 1) {
    throw new StorageError('invalid-data', operation, `Thread "${threadId}" is missing entries between seq ${fromSeq} and ${toSeq} in storage; export what is readable and report it.`)
  }
  return rows.map((row, position) => checkStoredEntry(row, threadId, fromSeq + position, operation))
}

/** Up to `limit` entries with seq in `fromSeq..toSeq`, newest first. Call inside a transaction. */
export async function readEntriesNewestFirst(db: ThreadlensDB, threadId: string, fromSeq: number, toSeq: number, limit: number, operation: string): Promise<Entry[]> {
  if (toSeq < fromSeq) return []
  const rows = await db.entries.where('[threadId+seq]').between([threadId, fromSeq], [threadId, toSeq], true, true).reverse().limit(limit).toArray()
  return rows.map((row, position) => checkStoredEntry(row, threadId, toSeq - position, operation))
}
