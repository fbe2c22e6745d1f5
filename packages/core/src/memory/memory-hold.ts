import type { ThreadSource } from '../entries/thread'
import type { ContextPolicy } from '../policy/policy'
import type { ProjectionMeta } from '../project/types'
import type { TokenCounter } from '../tokens/token-counter'

/** The memory text a session last sent, and where the prompt stood when it was rendered. */
export interface HeldMemory {
  readonly text: string
  /** Visible user turns in the thread when it was rendered (see `visibleTurns`). */
  readonly turn: number
  /** The prompt's stable base when it was rendered (see `memoryWindowKey`). */
  readonly windowKey: string
}

/**
 * Why the memory segment was rendered fresh (`held: false`) or the held text sent again.
 * `first`: nothing held yet; `same`: the fresh text is the held one; `no-hold`: hysteresis is off
 * (`cacheFriendly` off or `cache.memoryHoldTurns` 1); `turns`: held for `memoryHoldTurns` turns, or
 * the thread was reset; `changed`: the change is over `memoryRefreshTokens`; `window-moved`: the cache
 * window or summary checkpoint moved, so the prefix after the memory is rewritten anyway.
 */
export type MemoryRefreshReason = 'first' | 'same' | 'no-hold' | 'turns' | 'changed' | 'window-moved'

export interface MemoryChoice {
  /** The memory text to send. */
  readonly text: string
  /** True when `text` is the held text, not the fresh one. */
  readonly held: boolean
  readonly reason: MemoryRefreshReason | 'held'
  /** Visible user turns now: store it with the text when the fresh text is sent. */
  readonly turn: number
}

/** User turns after the newest reset: the clock memory hysteresis counts in. */
export function visibleTurns(thread: ThreadSource): number {
  const { userSeqs, resetSeq } = thread.index
  let count = 0
  for (let position = userSeqs.length - 1; position >= 0 && (userSeqs[position] as number) > resetSeq; position--) count++
  return count
}

/**
 * The prompt's stable base as a projection placed it: where a cache-friendly window started history
 * and which summary checkpoint opened it. When it changes, every byte after the memory segment is
 * rewritten anyway, so that is the moment to send a fresh memory.
 */
export function memoryWindowKey(meta: ProjectionMeta): string {
  return `${meta.cacheWindowStart ?? '-'}/${meta.summary?.seq ?? '-'}`
}

/** Tokens a change from `before` to `after` adds or removes (the larger, outside their common prefix and suffix). */
export function changedTokens(before: string, after: string, counter: TokenCounter): number {
  if (before === after) return 0
  let start = 0
  const shorter = Math.min(before.length, after.length)
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++
  let end = 0
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++
  return Math.max(1, counter.count(before.slice(start, before.length - end)), counter.count(after.slice(start, after.length - end)))
}

/**
 * Memory hysteresis, decided before projecting: send the held text again, or the fresh one. Pure.
 * A held choice is provisional: project with it, and if `memoryWindowKey(meta)` differs from
 * `held.windowKey` the window moved — project again with the fresh text (reason `window-moved`).
 */
export function chooseMemoryText(options: {
  /** The memory as it is now, rendered. */
  readonly fresh: string
  readonly held: HeldMemory | undefined
  readonly thread: ThreadSource
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  /**
   * Visible user turns the call is made at. Default `visibleTurns(thread)`; one more for a call that
   * follows a user message not yet in the thread (what a `send()` appends first).
   */
  readonly turn?: number
}): MemoryChoice {
  const { fresh, held, policy } = options
  const turn = options.turn ?? visibleTurns(options.thread)
  const refresh = (reason: MemoryRefreshReason): MemoryChoice => ({ text: fresh, held: false, reason, turn })
  if (held === undefined) return refresh('first')
  if (held.text === fresh) return refresh('same')
  if (!policy.cacheFriendly || policy.cache.memoryHoldTurns <= 1) return refresh('no-hold')
  if (turn < held.turn || turn - held.turn >= policy.cache.memoryHoldTurns) return refresh('turns')
  if (changedTokens(held.text, fresh, options.counter) > policy.cache.memoryRefreshTokens) return refresh('changed')
  return { text: held.text, held: true, reason: 'held', turn }
}
