import type { Entry } from '../entries/entry'

// What recall exchanges with the projector: the searcher it is given and what meta says of it.

/** One search of a thread's older entries. */
export interface RecallRequest {
  /** The projected thread's entries, in seq order (the searcher indexes what it has not seen yet). */
  readonly entries: readonly Entry[]
  readonly query: string
  /** Only entries with `from <= seq < before` are searched. */
  readonly from: number
  readonly before: number
  /** At most this many hits, best first. */
  readonly limit: number
}

/** An entry found relevant, with its score and the indexed terms of it that matched. */
export interface RecallHit {
  readonly seq: number
  readonly score: number
  readonly terms: readonly string[]
}

/** Ranks a thread's entries by relevance to a query; must be deterministic (same entries and query, same hits). */
export interface RecallSearcher {
  search(request: RecallRequest): readonly RecallHit[]
  /** The searchable terms of a text (what the query is matched on); none means there is nothing to search for. */
  terms(text: string): readonly string[]
}

/** Why recall sent nothing. */
export type RecallSkip =
  /** no `recall` searcher was passed to `project()` */
  | 'no-index'
  /** the newest user message has no searchable words (empty, or only stop words) */
  | 'empty-query'
  /** everything older is already in the window: nothing to recall */
  | 'nothing-older'
  /** no older entry matched the query */
  | 'no-match'
  /** the matches did not fit the room recall had */
  | 'no-room'
  /** the searcher threw; the projection went on without recall */
  | 'search-failed'

/** What recall did: the query, its room, and each entry it sent, with why. */
export interface RecallMeta {
  /** Terms searched for (from the newest user message). */
  readonly query: readonly string[]
  /** Tokens recall could use: its share of the history room, plus what the window left unused. */
  readonly budget: number
  /** Tokens of the recall block, overhead included (0 when skipped). */
  readonly tokens: number
  /** Entries sent in the recall block, ascending; a hit's neighbours and tool units come with it. */
  readonly seqs: readonly number[]
  /** The hits that brought them, best first: the entry's score and the terms of it that matched. */
  readonly hits: readonly RecallHit[]
  /** Set when the block was left out. */
  readonly skipped: RecallSkip | undefined
}
