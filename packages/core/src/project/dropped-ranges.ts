import type { CheckpointSegments } from './checkpoint-segments'
import type { ProjectionContext } from './projection-context'
import type { UnitSelection } from './select-units'
import type { DropReason, DroppedRange } from './types'

/**
 * Every entry not present raw (in the history or the recall block) and not covered by the summary in use, as ascending ranges.
 * Only the walked part is looked at entry by entry; older parts are whole ranges split around
 * the pinned entries that made it in, so meta stays small on huge threads.
 * `includedSeqs` are the seqs sent, ascending.
 */
export function droppedRanges(
  { firstSeq, lastSeq, index, visibleFrom }: ProjectionContext,
  { coveredFrom, coveredTo }: CheckpointSegments,
  { lowWater, stopReason, explicit }: UnitSelection,
  includedSeqs: readonly number[],
  recalledSeqs: readonly number[],
): DroppedRange[] {
  const ranges: DroppedRange[] = []
  const pushRange = (fromSeq: number, toSeq: number, reason: DropReason): void => {
    if (toSeq < fromSeq) return
    const last = ranges[ranges.length - 1]
    if (last !== undefined && last.reason === reason && last.toSeq === fromSeq - 1) {
      ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq, reason }
    } else ranges.push({ fromSeq, toSeq, reason })
  }
  const covered = (seq: number): boolean => seq >= coveredFrom && seq <= coveredTo

  // Hidden by reset; the reset op itself is applied, never sent.
  if (visibleFrom > firstSeq) {
    pushRange(firstSeq, visibleFrom - 2, 'reset')
    pushRange(visibleFrom - 1, visibleFrom - 1, index.resetSeq === visibleFrom - 1 ? 'applied' : 'reset')
  }

  // Not walked: one reason for all, split around included (pinned) entries and the summary's range.
  if (stopReason !== undefined) {
    const reason = stopReason
    let from = visibleFrom
    const gaps: [number, number][] = []
    if (coveredTo >= coveredFrom) gaps.push([coveredFrom, coveredTo])
    for (const seq of includedSeqs) if (seq < lowWater) gaps.push([seq, seq])
    for (const seq of recalledSeqs) gaps.push([seq, seq])
    gaps.sort((a, b) => a[0] - b[0])
    for (const [gapFrom, gapTo] of gaps) {
      if (gapTo < from) continue
      if (gapFrom >= lowWater) break
      pushRange(from, Math.min(gapFrom, lowWater) - 1, reason)
      from = gapTo + 1
    }
    pushRange(from, lowWater - 1, reason)
  }

  // Walked: entry by entry, skipping the summary's range in one step (and recalled entries the
  // window stopped above).
  const recalled = new Set(recalledSeqs)
  for (let seq = Math.max(lowWater, visibleFrom); seq <= lastSeq; seq++) {
    if (covered(seq)) {
      seq = coveredTo
      continue
    }
    const fate = explicit.get(seq)
    if (fate === 'included' || recalled.has(seq)) continue
    pushRange(seq, seq, fate ?? stopReason ?? 'budget')
  }
  return ranges
}
