import type { ProjectionMeta } from '@threadlens/core'
import type { RecallSkip } from '@threadlens/core/recall'
import type { EntryFate } from '@threadlens/core/views'
import { formatNumber } from './meter-parts'

/** Why recall sent nothing, in plain words (after "Recall skipped: "). */
export const recallSkipTexts: Readonly<Record<RecallSkip, string>> = {
  'no-index': 'no index was given to the projection, so there was nothing to search',
  'empty-query': 'the newest user message has no words worth searching for',
  'nothing-older': 'every older entry is already in the context',
  'no-match': 'no older entry matched the newest user message',
  'no-room': 'the matching entries did not fit in the room kept for recall',
  'search-failed': 'the search failed, so the request was made without it',
}

/** `adoption, agency`: the terms of a hit, or of the query. */
function termList(terms: readonly string[]): string {
  return terms.join(', ')
}

/**
 * What recall did for one entry, in plain words: `recalled: matched adoption, agency (score 3.21)`
 * for a hit, `recalled beside a match` for a neighbour brought along; `undefined` for any other fate.
 */
export function recallDetail(fate: EntryFate): string | undefined {
  if (fate.state !== 'recalled') return undefined
  if (fate.hit === undefined) return 'recalled beside an older entry that matched'
  return `recalled: matched ${termList(fate.hit.terms)} (score ${fate.hit.score.toFixed(2)})`
}

export interface RecallSummary {
  /** `sent`: the block went out; `skipped`: recall sent nothing (`reason` says why). */
  readonly status: 'sent' | 'skipped'
  readonly reason: RecallSkip | undefined
  /** One sentence for a reader. */
  readonly text: string
  /** What was searched for, as words (empty when there was nothing to search for). */
  readonly query: string
}

const entries = (count: number) => `${formatNumber(count)} older ${count === 1 ? 'entry' : 'entries'}`

/**
 * What recall did in one projection, in one sentence: the entries it brought back and their tokens
 * against its room, or why it sent nothing. `indexPending`: the panel's own index has not loaded
 * yet (it loads at the first click or key press), which is why there was none. `undefined` when
 * the policy has no recall. Pure.
 */
export function recallSummary(meta: ProjectionMeta, options: { readonly indexPending?: boolean } = {}): RecallSummary | undefined {
  const recall = meta.recall
  if (recall === undefined) return undefined
  const query = termList(recall.query)
  if (recall.skipped === 'no-index' && options.indexPending === true) {
    return {
      status: 'skipped',
      reason: 'no-index',
      text: 'Recall waits for its search index, which loads at the first click or key press on the page.',
      query,
    }
  }
  if (recall.skipped !== undefined) {
    return { status: 'skipped', reason: recall.skipped, text: `Recall skipped: ${recallSkipTexts[recall.skipped]}.`, query }
  }
  const matched = recall.hits.length
  const text =
    `Recalled ${entries(recall.seqs.length)} (${formatNumber(recall.tokens)} of the ${formatNumber(recall.budget)} tokens kept for recall): ` +
    `${formatNumber(matched)} matched the newest user message${recall.seqs.length > matched ? ', the rest came with them' : ''}.`
  return { status: 'sent', reason: undefined, text, query }
}

/** What one side of a comparison did with recall, in a few words. */
function recallState(meta: ProjectionMeta): string {
  const recall = meta.recall
  if (recall === undefined) return 'no recall'
  if (recall.skipped !== undefined) return `recall skipped (${recallSkipTexts[recall.skipped]})`
  return `recalled ${entries(recall.seqs.length)} (${formatNumber(recall.tokens)} tokens)`
}

/**
 * The policy lab's line on recall: what the app policy and the policy tried did with it, e.g.
 * `Recall: app policy: no recall · this policy: recalled 6 older entries (412 tokens)`. `undefined`
 * when neither policy recalls. Pure.
 */
export function recallComparison(base: ProjectionMeta, lab: ProjectionMeta): string | undefined {
  if (base.recall === undefined && lab.recall === undefined) return undefined
  return `Recall: app policy: ${recallState(base)} · this policy: ${recallState(lab)}`
}
