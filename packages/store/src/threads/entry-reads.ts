import { entrySchema, type Entry } from '@threadlens/core'
import { StorageError } from '../errors'
import type { ThreadlensDB } from '../database/threadlens-db'

/** Checks an entry read back from IndexedDB (another app version or a devtools edit may have written it). */
export function checkStoredEntry(raw: unknown, threadId: string, seq: number, operation: string): Entry {
  const parsed = entrySchema.safeParse(raw)
  if (!parsed.success || parsed.data.threadId !== threadId || parsed.data.seq !== seq) {
    const issue = parsed.error?.issues[0]
    const detail = issue === undefined ? 'wrong thread or seq' : `${issue.path.map(String).join('.')}: ${issue.message}`
    throw new StorageError(
      'invalid-data',
      operation,
      `Entry ${seq} of thread "${threadId}" is damaged in storage (${detail}); export what is readable and report it.`,
      parsed.success ? undefined : { cause: parsed.error },
    )
  }
  return parsed.data
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
