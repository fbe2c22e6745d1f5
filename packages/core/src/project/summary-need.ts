import type { CheckpointSegments } from './checkpoint-segments'
import type { ProjectionContext } from './projection-context'
import { summaryThreshold } from './summary-threshold'
import type { DroppedRange, MessageInfo, NeedsSummaryReason } from './types'
import { entryAt } from './units'

/**
 * Whether a (new) summary would add to what the model gets, and why. A summary stands in only for
 * what does not fit, so what counts is the conversation no summary covers yet:
 * - `history-dropped`: entries left out for lack of room (budget, window, cache-friendly window)
 *   that no summary covers hold at least `1 − summarizeAtRatio` of the room the budget leaves the
 *   conversation: a few turns, not every turn, so a session compacts now and then, not on every call;
 * - `over-threshold`: the uncovered conversation (everything after the newest summary, pending and
 *   memory included; recall excluded, it fills whatever room is left) reaches `summarizeAtRatio` of
 *   that room: compact before anything is lost.
 */
export function summaryNeed(
  context: ProjectionContext,
  checkpoints: CheckpointSegments,
  dropped: readonly DroppedRange[],
  infos: readonly MessageInfo[],
  fixedTokens: number,
): NeedsSummaryReason | undefined {
  const { policy, counter } = context.input
  const room = context.budget - fixedTokens
  const coveredTo = checkpoints.summaryEntry?.payload.toSeq ?? -1
  // Left out for lack of room and not covered: counted newest first, only until the limit is reached.
  const droppedLimit = Math.max(1, room - summaryThreshold(context.budget, fixedTokens, policy.summarizeAtRatio))
  let droppedTokens = 0
  for (let position = dropped.length - 1; position >= 0 && droppedTokens < droppedLimit; position--) {
    const range = dropped[position] as DroppedRange
    if (range.reason !== 'budget' && range.reason !== 'window' && range.reason !== 'cache-window') continue
    for (let seq = range.toSeq; seq >= Math.max(range.fromSeq, coveredTo + 1) && droppedTokens < droppedLimit; seq--) {
      const entry = entryAt(context, seq)
      if (entry !== undefined && entry.kind !== 'summary' && entry.kind !== 'context_op') droppedTokens += counter.countEntry(entry)
    }
  }
  if (droppedTokens >= droppedLimit) return 'history-dropped'
  let uncovered = 0
  for (const info of infos) {
    if (info.segment === 'recall' || info.segment === 'system') continue
    if (info.segment === 'history' && info.seqs.length > 0 && Math.max(...info.seqs) <= coveredTo) continue
    uncovered += info.tokens
  }
  return uncovered >= summaryThreshold(context.budget, fixedTokens, policy.summarizeAtRatio) ? 'over-threshold' : undefined
}
