import type { Entry } from '../entries/entry'
import type { ThreadIndex } from '../entries/thread-index'
import type { TokenCounter } from '../tokens/token-counter'
import { firstWhere } from '../utils/first-where'
import { memo } from '../utils/memo'

/**
 * Running token totals of a thread's entries, per counter: `sums[i]` is the cost of entries
 * `0..i-1`. Extended incrementally as the thread grows, so each entry is added once.
 */
const sumsCache = new WeakMap<ThreadIndex, Map<string, number[]>>()

export function cumulativeTokens(entries: readonly Entry[], index: ThreadIndex, counter: TokenCounter): readonly number[] {
  const byCounter = memo(sumsCache, index, () => new Map())
  let sums = byCounter.get(counter.id)
  if (sums === undefined || sums.length > entries.length + 1) byCounter.set(counter.id, (sums = [0]))
  for (let position = sums.length - 1; position < entries.length; position++) {
    sums.push((sums[position] as number) + counter.countEntry(entries[position] as Entry))
  }
  return sums
}

/**
 * Where a cache-friendly window starts. Positions are measured in tokens from a fixed origin
 * (the start of the history region), and the start moves only in whole chunks of
 * `(1 - lowWaterRatio) × budget`: consecutive calls get the same start — a byte-identical
 * prompt prefix — until the history outgrows the budget by another chunk.
 * Returns the first seq allowed, or `undefined` when the whole region fits.
 */
export function cacheWindowStart(options: {
  readonly sums: readonly number[]
  readonly firstSeq: number
  readonly regionStart: number
  readonly lastSeq: number
  /** Tokens of messages not yet in the thread: they count toward the overflow, never toward positions. */
  readonly pendingTokens: number
  readonly budget: number
  readonly lowWaterRatio: number
}): number | undefined {
  const { sums, firstSeq, regionStart, lastSeq } = options
  const level = windowLevel(options)
  if (level === undefined) return undefined
  const target = level.origin + level.level * level.chunk
  // First position whose running total reaches the target.
  return firstWhere(regionStart - firstSeq, lastSeq - firstSeq + 1, (position) => (sums[position] as number) >= target) + firstSeq
}

/**
 * The newest seq of the thread as it stood when the cache-friendly window last moved to where it is
 * now (measured without pending messages, so every call between two moves gets the same answer).
 * Reductions batched with the window (see `cache.reduceEveryTurns`) use the protected zone as of
 * then: between moves the bytes of every message already sent stay as they were.
 * `undefined` when the window has not moved (the whole region fits).
 */
export function cacheWindowMovedAt(options: Parameters<typeof cacheWindowStart>[0]): number | undefined {
  const { sums, firstSeq, regionStart, lastSeq } = options
  const found = windowLevel(options)
  if (found === undefined) return undefined
  const { origin, chunk, level } = found
  // The thread end at which this level began: the budget plus (level - 1) chunks past the origin.
  const target = origin + options.budget + (level - 1) * chunk
  const reached = firstWhere(regionStart - firstSeq + 1, lastSeq - firstSeq + 1, (position) => (sums[position] as number) >= target)
  return Math.min(lastSeq, reached - 1 + firstSeq)
}

/**
 * How many whole chunks the history (with pending tokens) has outgrown the budget by, from the
 * region's origin: the level both the window start and the moment it moved are measured from.
 * `undefined` when the whole region fits.
 */
function windowLevel(
  options: Parameters<typeof cacheWindowStart>[0],
): { readonly origin: number; readonly chunk: number; readonly level: number } | undefined {
  const { sums, firstSeq, regionStart, lastSeq } = options
  const origin = sums[regionStart - firstSeq] as number
  const end = sums[lastSeq - firstSeq + 1] as number
  const excess = end - origin + options.pendingTokens - options.budget
  if (excess <= 0) return undefined
  const chunk = Math.max(1, Math.floor(options.budget * (1 - options.lowWaterRatio)))
  return { origin, chunk, level: Math.ceil(excess / chunk) }
}
