import type { Entry } from '../entries/entry'
import type { RecallBlock, RecallPlan } from '../recall/recall-block'
import type { FixedSegments } from './fixed-segments'
import type { ProjectionContext } from './projection-context'
import type { UnitSelection } from './select-units'

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
export interface RecallSearch {
  search(request: RecallRequest): readonly RecallHit[]
  /** The searchable terms of a text (what the query is matched on); none means there is nothing to search for. */
  terms(text: string): readonly string[]
}

/** Where a searcher keeps the projector's recall phase (see `RecallSearcher`). */
export const recallPhaseKey: unique symbol = Symbol.for('threadlens.recall-phase')

/** How `project()` plans, chooses and trims the recall block; internal, carried by every `RecallSearcher`. */
export interface RecallPhase {
  plan(context: ProjectionContext, fixed: FixedSegments): RecallPlan | undefined
  select(context: ProjectionContext, fixed: FixedSegments, selection: UnitSelection, plan: RecallPlan, room: number): RecallBlock
  without(context: ProjectionContext, block: RecallBlock, taken: ReadonlySet<number>, room: number): RecallBlock
}

/**
 * What `project()` takes as `recall`: a search, with the recall phase that builds the block from its
 * hits. `createRecallIndex()` and `createHybridRecallIndex()` are searchers; `recallSearcher(search)`
 * makes one of your own search (both from `@threadlens/core/recall`).
 */
export interface RecallSearcher extends RecallSearch {
  readonly [recallPhaseKey]: RecallPhase
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
