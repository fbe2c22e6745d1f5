import type { Entry } from '../entries/entry'
import { ThreadlensError } from '../errors/threadlens-error'
import { recallPhaseKey } from '../project/recall-types'
import type { RecallHit, RecallRequest, RecallSearcher } from '../project/types'
import { recallPhase } from './recall-block'
import { entryRecallTerms, indexedTerms, RECALL_TERMS_VERSION } from './entry-terms'
import { defaultBm25, type Bm25Parameters } from './bm25'
import { TermIndex } from './term-index'

/** At most this many query terms are searched: the rarest in the thread, which tell entries apart. */
const MAX_QUERY_TERMS = 8
/** Query terms this long also match the longer words they start. */
const PREFIX_LENGTH = 5

/**
 * The query's terms worth searching, rarest first: a term in most entries says little and costs a
 * score update per entry (BM25 gives it almost no weight anyway). Bounded by construction.
 */
export function tellingTerms(terms: readonly string[], frequency: (term: string) => number, documents: number): string[] {
  const unique = [...new Set(terms)]
  // A term no entry has can still match longer words by prefix ('adopt' finds 'adoption'), if long enough.
  const matchable = unique.filter((term) => frequency(term) > 0 || term.length >= PREFIX_LENGTH)
  const byRarity = matchable.sort((a, b) => frequency(a) - frequency(b) || (a < b ? -1 : a > b ? 1 : 0))
  const telling = byRarity.filter((term) => frequency(term) <= Math.max(8, documents / 2))
  // Telling terms first, at most MAX_QUERY_TERMS; only common words: the two rarest still rank something.
  return telling.length > 0
    ? [...telling.slice(0, MAX_QUERY_TERMS), ...byRarity.filter((term) => !telling.includes(term)).slice(0, Math.max(0, 2 - telling.length))]
    : byRarity.slice(0, 2)
}

export interface RecallIndexOptions {
  /** BM25+ parameters (term-frequency saturation `k`, length normalisation `b`, floor `d`). Default `{ k: 1.2, b: 0.7, d: 0.5 }`. */
  readonly bm25?: Bm25Parameters
}

/** A full-text recall index over one thread, with what it has indexed so far. */
export interface RecallIndex extends RecallSearcher {
  /** Entries indexed (those with searchable text). */
  readonly size: number
  /** Seq of the newest entry looked at, or -1. */
  readonly indexedThrough: number
  /** Brings the index up to date with a thread's entries (in seq order); rebuilds it when they disagree with what it holds. */
  sync(entries: readonly Entry[]): void
  /**
   * Replaces what the index holds with terms worked out earlier (kept beside the entries: what
   * `@threadlens/store`'s `threads.recallIndex()` reads), one row per entry from seq 0, so a long
   * thread is not read and tokenized again. Rows that go on from the rows of the `restore` just
   * before (no `sync` or `search` in between) add to them: a long thread can be restored in slices.
   * Rows out of order, with a gap, of another thread or of another `version` throw
   * `InvalidRecallTermsError` and leave the index empty (the next `sync` builds it from the entries).
   */
  restore(threadId: string, rows: readonly RecallTermsRow[]): void
}

/** The terms of one entry, as kept beside it (`entryRecallTerms`, worked out by `RECALL_TERMS_VERSION`). */
export interface RecallTermsRow {
  readonly threadId: string
  readonly seq: number
  /** The entry's id: an entry that is not the one indexed at its seq makes the index start again. */
  readonly id: string
  /** `undefined` (or `null`) for an entry recall does not search. */
  readonly terms: readonly string[] | null | undefined
  readonly version: number
}

/** Stored recall terms that do not make an index of one thread: out of order, with a gap, of another thread, or of another version. */
export class InvalidRecallTermsError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidRecallTermsError'
  constructor(threadId: string, seq: number, problem: string) {
    super(
      `The stored recall terms of thread "${threadId}" cannot be restored at seq ${seq}: ${problem}. The index is built from the entries instead.`,
    )
  }
}

// long: one closure over the index and what it has seen; sync, restore and search each read and reset the same few variables.
/**
 * Full-text recall over a thread (BM25+ over an inverted index of its entries' terms), kept in step
 * with the entries it is given: appends are indexed incrementally; a different thread, or an entry
 * that is not the one indexed at its seq, rebuilds it from scratch. One index per thread;
 * `project()` syncs it on every call.
 */
export function createRecallIndex(options: RecallIndexOptions = {}): RecallIndex {
  const bm25 = options.bm25 ?? defaultBm25
  let index = new TermIndex()
  let threadId: string | undefined
  let indexedThrough = -1
  /** Seq of the oldest entry looked at: entries older than it (a partial read first, the whole thread later) mean a rebuild. */
  let indexedFrom = Number.POSITIVE_INFINITY
  let lastId: string | undefined
  /** Set by `restore` until the index is synced or searched: a next `restore` may go on from it. */
  let restoring = false

  const reset = (): void => {
    restoring = false
    index = new TermIndex()
    threadId = undefined
    indexedThrough = -1
    indexedFrom = Number.POSITIVE_INFINITY
    lastId = undefined
  }
  /** Whether `entries` continue the thread indexed so far (append-only: the entry indexed last is still there, unchanged). */
  const agrees = (entries: readonly Entry[]): boolean => {
    const first = entries[0]
    if (first === undefined || threadId === undefined) return true
    // Another thread, older entries than it saw, fewer entries, or a gap after what it indexed: start again.
    if (
      first.threadId !== threadId ||
      first.seq < indexedFrom ||
      first.seq > indexedThrough + 1 ||
      (entries[entries.length - 1] as Entry).seq < indexedThrough
    )
      return false
    const seen = entries[indexedThrough - first.seq]
    return seen === undefined || seen.id === lastId
  }

  return {
    [recallPhaseKey]: recallPhase,
    get size() {
      return index.documents
    },
    get indexedThrough() {
      return indexedThrough
    },
    sync(entries) {
      restoring = false
      if (!agrees(entries)) reset()
      const first = entries[0]
      if (first === undefined) return
      threadId = first.threadId
      if (indexedFrom === Number.POSITIVE_INFINITY) indexedFrom = first.seq
      for (let position = Math.max(0, indexedThrough + 1 - first.seq); position < entries.length; position++) {
        const entry = entries[position] as Entry
        const terms = index.has(entry.seq) ? undefined : entryRecallTerms(entry)
        if (terms !== undefined) index.add(entry.seq, terms)
        indexedThrough = entry.seq
        lastId = entry.id
      }
    },
    restore(restoredThreadId, rows) {
      const first = rows[0]
      // Rows that go on from what the restore before gave (a long thread restored in slices) add to it.
      const continuing = restoring && threadId === restoredThreadId && first !== undefined && first.seq > 0 && first.seq === indexedThrough + 1
      const held = continuing ? index : new TermIndex()
      const from = continuing ? indexedThrough + 1 : 0
      const before = { through: indexedThrough, id: lastId }
      reset()
      const last = restoredTerms(restoredThreadId, rows, from, held)
      if (last === undefined && !continuing) return
      index = held
      threadId = restoredThreadId
      indexedFrom = 0
      indexedThrough = last?.seq ?? before.through
      lastId = last?.id ?? before.id
      restoring = true
    },
    terms(text) {
      return indexedTerms(text)
    },
    search(request: RecallRequest): readonly RecallHit[] {
      this.sync(request.entries)
      if (request.limit <= 0 || request.query.trim() === '') return []
      const terms = tellingTerms(indexedTerms(request.query), (term) => index.frequency(term), index.documents)
      if (terms.length === 0) return []
      const matches = index.search({
        terms,
        prefix: (term) => term.length >= PREFIX_LENGTH,
        from: request.from,
        before: request.before,
        limit: request.limit,
        bm25,
      })
      return matches.map((match) => ({ seq: match.document, score: match.score, terms: match.terms }))
    },
  }
}

/** Adds stored rows to `index` (checked: one thread, gapless from seq `from`, this version); the last row, `undefined` for none. */
function restoredTerms(threadId: string, rows: readonly RecallTermsRow[], from: number, index: TermIndex): RecallTermsRow | undefined {
  let expected = from
  for (const row of rows) {
    const problem =
      row.threadId !== threadId
        ? `the row belongs to thread "${row.threadId}"`
        : row.seq !== expected
          ? `expected seq ${expected}`
          : row.version !== RECALL_TERMS_VERSION
            ? `version ${row.version} is not ${RECALL_TERMS_VERSION}`
            : undefined
    if (problem !== undefined) throw new InvalidRecallTermsError(threadId, row.seq, problem)
    if (row.terms !== undefined && row.terms !== null) index.add(row.seq, row.terms)
    expected += 1
  }
  return rows[rows.length - 1]
}

export { entryRecallTerms, indexedTerms, recallText } from './entry-terms'
