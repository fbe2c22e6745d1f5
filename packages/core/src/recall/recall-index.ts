import MiniSearch from 'minisearch'
import type { Entry } from '../entries/entry'
import { toolArgumentsText, toolResultText } from '../entries/entry-text'
import { recallPhaseKey } from '../project/recall-types'
import type { RecallHit, RecallRequest, RecallSearcher } from '../project/types'
import { recallPhase } from './recall-block'
import { recallTerms } from './recall-terms'

/** At most this many query terms are searched: the rarest in the thread, which tell entries apart. */
const MAX_QUERY_TERMS = 8
/** Query terms this long also match the longer words they start. */
const PREFIX_LENGTH = 5

/**
 * The query's terms worth searching, rarest first: a term in most entries says little and costs a
 * score update per entry (BM25 gives it almost no weight anyway). Bounded by construction.
 */
export function tellingTerms(terms: readonly string[], documentFrequency: ReadonlyMap<string, number>, documents: number): string[] {
  const unique = [...new Set(terms)]
  const frequency = (term: string): number => documentFrequency.get(term) ?? 0
  // A term no entry has can still match longer words by prefix ('adopt' finds 'adoption'), if long enough.
  const matchable = unique.filter((term) => frequency(term) > 0 || term.length >= PREFIX_LENGTH)
  const byRarity = matchable.sort((a, b) => frequency(a) - frequency(b) || (a < b ? -1 : a > b ? 1 : 0))
  const telling = byRarity.filter((term) => frequency(term) <= Math.max(8, documents / 2))
  // Telling terms first, at most MAX_QUERY_TERMS; only common words: the two rarest still rank something.
  return telling.length > 0 ? [...telling.slice(0, MAX_QUERY_TERMS), ...byRarity.filter((term) => !telling.includes(term)).slice(0, Math.max(0, 2 - telling.length))] : byRarity.slice(0, 2)
}

/** Text past this many characters of one entry is not indexed: a 10 MB tool output is found by its start. */
const MAX_INDEXED_CHARACTERS = 200_000

/** The text recall searches in an entry: what the model would read of it. Summaries and context ops are not searched. */
export function recallText(entry: Entry): string | undefined {
  switch (entry.kind) {
    case 'message':
      return entry.payload.content
    case 'tool_call':
      return `${entry.payload.name} ${toolArgumentsText(entry.payload)}`
    case 'tool_result':
      return `${entry.payload.name} ${toolResultText(entry.payload)}`
    default:
      return undefined
  }
}

export interface RecallIndexOptions {
  /**
   * BM25+ parameters (term-frequency saturation `k`, length normalisation `b`, floor `d`).
   * Default `{ k: 1.2, b: 0.7, d: 0.5 }`, MiniSearch's own.
   */
  readonly bm25?: { readonly k: number; readonly b: number; readonly d: number }
}

/** A full-text recall index over one thread, with what it has indexed so far. */
export interface RecallIndex extends RecallSearcher {
  /** Entries indexed (those with searchable text). */
  readonly size: number
  /** Seq of the newest entry looked at, or -1. */
  readonly indexedThrough: number
  /** Brings the index up to date with a thread's entries (in seq order); rebuilds it when they disagree with what it holds. */
  sync(entries: readonly Entry[]): void
}

/**
 * Full-text recall over a thread (BM25+, MiniSearch), kept in step with the entries it is given:
 * appends are indexed incrementally; a different thread, or an entry that is not the one indexed at
 * its seq, rebuilds it from scratch. One index per thread; `project()` syncs it on every call.
 */
export function createRecallIndex(options: RecallIndexOptions = {}): RecallIndex {
  const bm25 = options.bm25 ?? { k: 1.2, b: 0.7, d: 0.5 }
  const tokenize = (text: string): string[] => recallTerms(text.length > MAX_INDEXED_CHARACTERS ? text.slice(0, MAX_INDEXED_CHARACTERS) : text)
  // An entry's terms are worked out once: counted for document frequency, then handed to MiniSearch.
  let pending: { readonly text: string; readonly terms: string[] } | undefined
  const indexTerms = (text: string): string[] => (pending !== undefined && pending.text === text ? pending.terms : tokenize(text))
  const make = (): MiniSearch<{ seq: number; text: string }> =>
    new MiniSearch<{ seq: number; text: string }>({ idField: 'seq', fields: ['text'], tokenize: indexTerms, processTerm: (term) => term, searchOptions: { bm25 } })
  let search = make()
  /** Entries each term occurs in: to search for the telling terms of a query first. */
  let documentFrequency = new Map<string, number>()
  let threadId: string | undefined
  let indexedThrough = -1
  /** Seq of the oldest entry looked at: entries older than it (a partial read first, the whole thread later) mean a rebuild. */
  let indexedFrom = Number.POSITIVE_INFINITY
  let lastId: string | undefined

  const reset = (): void => {
    search = make()
    documentFrequency = new Map()
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
    if (first.threadId !== threadId || first.seq < indexedFrom || first.seq > indexedThrough + 1 || (entries[entries.length - 1] as Entry).seq < indexedThrough) return false
    const seen = entries[indexedThrough - first.seq]
    return seen === undefined || seen.id === lastId
  }

  return {
    [recallPhaseKey]: recallPhase,
    get size() {
      return search.documentCount
    },
    get indexedThrough() {
      return indexedThrough
    },
    sync(entries) {
      if (!agrees(entries)) reset()
      const first = entries[0]
      if (first === undefined) return
      threadId = first.threadId
      if (indexedFrom === Number.POSITIVE_INFINITY) indexedFrom = first.seq
      for (let position = Math.max(0, indexedThrough + 1 - first.seq); position < entries.length; position++) {
        const entry = entries[position] as Entry
        const text = recallText(entry)
        if (text !== undefined && text !== '' && !search.has(entry.seq)) {
          pending = { text, terms: tokenize(text) }
          for (const term of new Set(pending.terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1)
          search.add({ seq: entry.seq, text })
          pending = undefined
        }
        indexedThrough = entry.seq
        lastId = entry.id
      }
    },
    terms(text) {
      return tokenize(text)
    },
    search(request: RecallRequest): readonly RecallHit[] {
      this.sync(request.entries)
      if (request.limit <= 0 || request.query.trim() === '') return []
      const terms = tellingTerms(tokenize(request.query), documentFrequency, search.documentCount)
      if (terms.length === 0) return []
      const hits = rankedHits(search, terms, request)
      return hits.slice(0, request.limit)
    },
  }
}

/** The entries in `from <= seq < before` matching any of `terms` (folded already), best first, ties newest first. */
function rankedHits(search: MiniSearch<{ seq: number; text: string }>, terms: readonly string[], request: RecallRequest): RecallHit[] {
  const results = search.search(terms.join(' '), {
    // The terms are folded already: split them as they are, never fold twice.
    tokenize: (text) => text.split(' '),
    combineWith: 'OR',
    // Longer words also find their other forms ('adopt' finds 'adoption'); short ones would match too much.
    prefix: (term) => term.length >= PREFIX_LENGTH,
    filter: (result) => (result.id as number) >= request.from && (result.id as number) < request.before,
  })
  const hits = results.map((result) => ({ seq: result.id as number, score: result.score, terms: [...result.terms].sort() }))
  return hits.sort((a, b) => b.score - a.score || b.seq - a.seq)
}
