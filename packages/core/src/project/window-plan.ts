import { cacheWindowMovedAt, cacheWindowStart, cumulativeTokens } from './cache-window'
import type { CheckpointSegments } from './checkpoint-segments'
import type { FixedSegments } from './fixed-segments'
import { latestVisible, type ProjectionContext } from './projection-context'
import { turnWindowFloor } from './turns'
import { firstWhere } from '../utils/first-where'

/** Where history may start for the prompt cache's sake, and below which seq reductions may apply. */
export interface WindowPlan {
  /** The oldest seq a cache-friendly window keeps; `undefined` when windows do not move in chunks. */
  readonly cacheStart: number | undefined
  /** Reductions apply only below this seq (the protected zone, or the last batch's). */
  readonly reductionFloor: number
  /** Where the batch before this one stopped: the cached prefix a batch can still read ends there. */
  readonly previousReductionFloor: number | undefined
}

/**
 * `recallReserve`: history room held back for recall. A cache-friendly window is sized on what is
 * left, so it still moves in chunks (recall fills what it leaves, after the cached prefix).
 */
export function planWindows(context: ProjectionContext, fixed: FixedSegments, checkpoints: CheckpointSegments, recallReserve = 0): WindowPlan {
  const { input, entries, index, firstSeq, lastSeq, visibleFrom, budget } = context
  const { policy, counter } = input
  // Cache-friendly windows move in chunks, on a grid measured from a fixed origin. Pending
  // messages count toward the overflow (so the grid moves once, not once before and once after
  // they are appended); the grid never cuts into the latest turn, which the budget alone decides.
  // Entries a summary covers are walked like the rest (it stands in only for what does not fit).
  const regionStart = visibleFrom
  const latestTurn = latestVisible(index.userSeqs, visibleFrom)
  const grid =
    policy.cacheFriendly && regionStart <= lastSeq
      ? {
          sums: cumulativeTokens(entries, index, counter),
          firstSeq,
          regionStart,
          lastSeq,
          pendingTokens: fixed.pendingTokens,
          budget: Math.max(1, budget - fixed.systemTokens - fixed.toolTokens - checkpoints.summaryTokens - checkpoints.memoryTokens - recallReserve),
          lowWaterRatio: policy.cacheLowWaterRatio,
        }
      : undefined
  const gridStart = grid === undefined ? undefined : cacheWindowStart(grid)
  const cacheStart = gridStart === undefined || latestTurn === undefined ? gridStart : Math.min(gridStart, latestTurn)

  // Reductions rewrite a message already sent, which breaks the cached prefix there. On request
  // (`cache.reduceEveryTurns` > 1, cache-friendly windows) they come in batches: every that many
  // turns, and when the window moves (everything after its start is sent anew then anyway), each
  // time using the protected zone as it stood at that moment. Between batches nothing sent changes.
  const protectedFrom = turnWindowFloor(policy.keepLastTurns, index.userSeqs, visibleFrom, context.pendingHasUser)
  if (!(policy.cacheFriendly && policy.cache.reduceEveryTurns > 1))
    return { cacheStart, reductionFloor: protectedFrom, previousReductionFloor: undefined }
  // The protected zone when the thread ended at `seq`: nothing after it existed to reduce.
  const floorAsOf = (seq: number): number =>
    Math.min(seq + 1, turnWindowFloor(policy.keepLastTurns, userSeqsUpTo(index.userSeqs, seq), visibleFrom, false))
  const movedAt = grid === undefined ? undefined : cacheWindowMovedAt(grid)
  const windowFloor = movedAt === undefined ? visibleFrom : floorAsOf(movedAt)
  const hiddenTurns = userSeqsUpTo(index.userSeqs, visibleFrom - 1).length
  const visibleTurns = index.userSeqs.length - hiddenTurns
  const batchTurns = Math.floor(visibleTurns / policy.cache.reduceEveryTurns) * policy.cache.reduceEveryTurns
  const nextTurnStart = batchTurns === 0 ? undefined : index.userSeqs[hiddenTurns + batchTurns]
  const turnFloor = batchTurns === 0 ? visibleFrom : floorAsOf(nextTurnStart === undefined ? lastSeq : nextTurnStart - 1)
  const reductionFloor = Math.min(protectedFrom, Math.max(windowFloor, turnFloor))
  if (batchTurns < policy.cache.reduceEveryTurns) return { cacheStart, reductionFloor, previousReductionFloor: undefined }
  const previousTurnStart = index.userSeqs[hiddenTurns + batchTurns - policy.cache.reduceEveryTurns] as number
  return { cacheStart, reductionFloor, previousReductionFloor: Math.min(reductionFloor, floorAsOf(previousTurnStart - 1)) }
}

/** The user seqs up to `seq`, ascending (a prefix of `seqs`). */
function userSeqsUpTo(seqs: readonly number[], seq: number): readonly number[] {
  return seqs.slice(
    0,
    firstWhere(0, seqs.length, (position) => (seqs[position] as number) > seq),
  )
}
