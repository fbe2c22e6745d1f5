import type { Entry } from '@threadlens/core'
import { entryRecallTerms, RECALL_TERMS_VERSION } from '@threadlens/core/internal'
import type { RecallTermsRow } from '@threadlens/core/recall'
import type { RecallTermsChunk, ThreadRow } from '../../rows'
import type { ThreadlensDB } from './threadlens-db'
import { StorageError, ThreadNotFoundError } from '../../errors'
import { readEntries } from './entry-reads'

// Recall's terms are kept in chunks of consecutive entries, not a row per entry: an append writes
// one row more or less whatever its size (IndexedDB's cost is per row), and restoring a thread's
// index reads a few rows. A chunk closes at `CHUNK_ENTRIES` entries or `CHUNK_CHARACTERS` characters
// of terms, so the row an append rewrites stays small.

const CHUNK_ENTRIES = 64
const CHUNK_CHARACTERS = 32_768

/** One entry's terms as a chunk keeps them: joined by spaces (no term holds one), `null` when recall does not search the entry. */
function storedTerms(entry: Entry): string | null {
  const terms = entryRecallTerms(entry)
  return terms === undefined ? null : terms.join(' ')
}

function characters(chunk: RecallTermsChunk): number {
  return chunk.terms.reduce((sum, terms) => sum + (terms?.length ?? 0), 0)
}

/**
 * The chunk rows to write for `entries` (consecutive, in seq order) after `last`, the thread's
 * newest chunk: `last` grown while it has room and ends just before them, then new chunks.
 */
export function recallTermsChunks(last: RecallTermsChunk | undefined, entries: readonly Entry[]): RecallTermsChunk[] {
  const first = entries[0]
  if (first === undefined) return []
  const chunks: { threadId: string; firstSeq: number; ids: string[]; terms: (string | null)[]; version: number }[] = []
  let open =
    last !== undefined &&
    last.version === RECALL_TERMS_VERSION &&
    last.firstSeq + last.ids.length === first.seq &&
    last.ids.length < CHUNK_ENTRIES &&
    characters(last) < CHUNK_CHARACTERS
      ? { ...last, ids: [...last.ids], terms: [...last.terms] }
      : undefined
  let size = open === undefined ? 0 : characters(open)
  for (const entry of entries) {
    if (open === undefined || open.ids.length >= CHUNK_ENTRIES || size >= CHUNK_CHARACTERS) {
      if (open !== undefined) chunks.push(open)
      open = { threadId: entry.threadId, firstSeq: entry.seq, ids: [], terms: [], version: RECALL_TERMS_VERSION }
      size = 0
    }
    const terms = storedTerms(entry)
    open.ids.push(entry.id)
    open.terms.push(terms)
    size += terms?.length ?? 0
  }
  if (open !== undefined) chunks.push(open)
  return chunks
}

/** The thread's newest chunk row (asked in the same breath as the thread's row on every append). */
export function lastRecallChunk(db: ThreadlensDB, threadId: string): Promise<RecallTermsChunk | undefined> {
  return db.recallTerms.where('[threadId+firstSeq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true).last()
}

/** The per-entry rows a stored chunk gives, or `undefined` for a chunk that is damaged or of another version. */
function chunkRows(raw: unknown, threadId: string): RecallTermsRow[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const chunk = raw as Partial<RecallTermsChunk>
  if (chunk.threadId !== threadId || chunk.version !== RECALL_TERMS_VERSION || !Number.isSafeInteger(chunk.firstSeq)) return undefined
  if (!Array.isArray(chunk.ids) || !Array.isArray(chunk.terms) || chunk.ids.length !== chunk.terms.length) return undefined
  const rows: RecallTermsRow[] = []
  for (let position = 0; position < chunk.ids.length; position++) {
    const id: unknown = chunk.ids[position]
    const terms: unknown = chunk.terms[position]
    if (typeof id !== 'string' || (terms !== null && typeof terms !== 'string')) return undefined
    rows.push({
      threadId,
      seq: (chunk.firstSeq as number) + position,
      id,
      terms: terms === null ? null : terms === '' ? [] : terms.split(' '),
      version: RECALL_TERMS_VERSION,
    })
  }
  return rows
}

interface ReadTerms {
  readonly lastSeq: number
  /** By seq; `undefined` where no readable chunk covers the entry. */
  readonly rows: (RecallTermsRow | undefined)[]
}

/**
 * A thread's recall terms, one row per entry from seq 0, for `RecallIndex.restore`. Entries no
 * readable chunk covers (stored before the table existed, a chunk damaged or of another version)
 * get theirs worked out from the entries, and the thread's chunks are written again, once; a
 * thread whose chunks cover it is read without a write.
 */
export async function readRecallTerms(
  db: ThreadlensDB,
  threadId: string,
  operation: string,
  checkRow: (raw: unknown) => ThreadRow,
): Promise<RecallTermsRow[]> {
  const range = db.recallTerms.where('[threadId+firstSeq]').between([threadId, 0], [threadId, Number.MAX_SAFE_INTEGER], true, true)
  const read = async (): Promise<ReadTerms> => {
    const [, raw, chunks] = await Promise.all([db.checkSentinel(operation), db.threads.get(threadId), range.toArray()])
    if (raw === undefined) throw new ThreadNotFoundError(threadId, operation)
    const lastSeq = checkRow(raw).lastSeq
    const rows: (RecallTermsRow | undefined)[] = new Array(lastSeq + 1).fill(undefined)
    for (const chunk of chunks) for (const row of chunkRows(chunk, threadId) ?? []) if (row.seq <= lastSeq) rows[row.seq] = row
    return { lastSeq, rows }
  }
  const first = await db.run(operation, () => db.transaction('r', [db.threads, db.recallTerms, db.meta], read))
  if (!first.rows.includes(undefined)) return first.rows as RecallTermsRow[]
  return db.run(operation, () =>
    db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.meta], async () => {
      // Read again with the write lock held: another tab may have appended (or mended the chunks) in between.
      const { lastSeq } = await read()
      const entries = await readEntries(db, threadId, 0, lastSeq, operation)
      const chunks = recallTermsChunks(undefined, entries)
      await range.delete()
      await db.recallTerms.bulkPut(chunks)
      const rows = chunks.flatMap((chunk) => chunkRows(chunk, threadId) ?? [])
      if (rows.length !== lastSeq + 1)
        throw new StorageError(
          'invalid-data',
          operation,
          `The recall terms of thread "${threadId}" could not be worked out from its entries; export what is readable and report it.`,
        )
      return rows
    }),
  )
}
