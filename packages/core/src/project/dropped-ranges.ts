import type { DropReason, DroppedRange } from './types'

export interface RangeInput {
  readonly firstSeq: number
  readonly lastSeq: number
  readonly resetSeq: number
  readonly visibleFrom: number
  readonly coveredFrom: number
  readonly coveredTo: number
  /** Below this seq the walk did not look: those entries share `stopReason`. */
  readonly lowWater: number
  readonly stopReason: DropReason | undefined
  readonly explicit: ReadonlyMap<number, DropReason | 'included'>
  readonly includedSeqs: readonly number[]
}

/**
 * Every entry not present raw and not covered by the summary in use, as ascending ranges.
 * Only the walked part is looked at entry by entry; older parts are whole ranges split around
 * the pinned entries that made it in, so meta stays small on huge threads.
 */
export function droppedRanges(input: RangeInput): DroppedRange[] {
  const ranges: DroppedRange[] = []
  const pushRange = (fromSeq: number, toSeq: number, reason: DropReason): void => {
    if (toSeq < fromSeq) return
    const last = ranges[ranges.length - 1]
    if (last !== undefined && last.reason === reason && last.toSeq === fromSeq - 1) {
      ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq, reason }
    } else ranges.push({ fromSeq, toSeq, reason })
  }
  const covered = (seq: number): boolean => seq >= input.coveredFrom && seq <= input.coveredTo

  // Hidden by reset; the reset op itself is applied, never sent.
  if (input.visibleFrom > input.firstSeq) {
    pushRange(input.firstSeq, input.visibleFrom - 2, 'reset')
    pushRange(input.visibleFrom - 1, input.visibleFrom - 1, input.resetSeq === input.visibleFrom - 1 ? 'applied' : 'reset')
  }

  // Not walked: one reason for all, split around included (pinned) entries and the summary's range.
  if (input.stopReason !== undefined) {
    const reason = input.stopReason
    let from = input.visibleFrom
    const gaps: [number, number][] = []
    if (input.coveredTo >= input.coveredFrom) gaps.push([input.coveredFrom, input.coveredTo])
    for (const seq of input.includedSeqs) if (seq < input.lowWater) gaps.push([seq, seq])
    gaps.sort((a, b) => a[0] - b[0])
    for (const [gapFrom, gapTo] of gaps) {
      if (gapTo < from) continue
      if (gapFrom >= input.lowWater) break
      pushRange(from, Math.min(gapFrom, input.lowWater) - 1, reason)
      from = gapTo + 1
    }
    pushRange(from, input.lowWater - 1, reason)
  }

  // Walked: entry by entry, skipping the summary's range in one step.
  for (let seq = Math.max(input.lowWater, input.visibleFrom); seq <= input.lastSeq; seq++) {
    if (covered(seq)) {
      seq = input.coveredTo
      continue
    }
    const fate = input.explicit.get(seq)
    if (fate === 'included') continue
    pushRange(seq, seq, fate ?? input.stopReason ?? 'budget')
  }
  return ranges
}
