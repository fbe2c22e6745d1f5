import type { ContextPolicy, Entry, ProjectionResult, Thread, TokenCounter } from '../src/index'
// Internals, read only to explain where a cache-friendly window should have started.
import { cacheWindowStart, cumulativeTokens } from '../src/project/cache-window'

/**
 * How much of a request a provider could serve from its prompt cache: the leading messages that
 * are byte-identical (as JSON) to the previous request's leading messages, as a share of the
 * request's message tokens. Provider caches match on the exact prefix, so one changed message
 * ends the reuse there, whatever follows.
 */
export interface PrefixMatch {
  /** Leading messages identical to the previous request's. */
  readonly matched: number
  readonly reusedTokens: number
  readonly messageTokens: number
}

export function sharedPrefix(previous: readonly string[], current: readonly string[], tokens: readonly number[]): PrefixMatch {
  let matched = 0
  while (matched < previous.length && matched < current.length && previous[matched] === current[matched]) matched++
  let reusedTokens = 0
  let messageTokens = 0
  tokens.forEach((count, position) => {
    messageTokens += count
    if (position < matched) reusedTokens += count
  })
  return { matched, reusedTokens, messageTokens }
}

/** One model call of the session, under one way of building the request. */
export interface CallRecord {
  readonly turn: number
  /** `first`: the user's message is pending; `after-tools`: the model is called again with the results. */
  readonly call: 'first' | 'after-tools'
  readonly share: number
  readonly reusedTokens: number
  readonly requestTokens: number
  readonly messages: number
  readonly previousMessages: number
  readonly previousRequestTokens: number
  /** Set when the previous request is not a prefix of this one: the message index where they part. */
  readonly brokeAt: number | undefined
  readonly reason: string | undefined
  readonly detail: string | undefined
}

export interface ShareStats {
  readonly calls: number
  readonly mean: number
  readonly median: number
  readonly p10: number
  readonly meanRequestTokens: number
  readonly meanReusedTokens: number
  /** Calls where the previous request was not a prefix of this one. */
  readonly breaks: number
  /**
   * `1 - mean` split by cause: calls that only appended (the new messages cannot be cached yet),
   * and calls whose prefix broke, by reason.
   */
  readonly missingFromNewMessages: number
  readonly missingByBreakReason: Readonly<
    Record<string, { readonly calls: number; readonly missing: number; readonly meanPreviousRequestTokens: number }>
  >
}

export function shareStats(records: readonly CallRecord[]): ShareStats {
  const shares = records.map((record) => record.share).sort((a, b) => a - b)
  const at = (fraction: number): number => shares[Math.min(shares.length - 1, Math.max(0, Math.ceil(fraction * shares.length) - 1))] as number
  const middle = shares.length / 2
  const median = shares.length % 2 === 1 ? (shares[Math.floor(middle)] as number) : ((shares[middle - 1] as number) + (shares[middle] as number)) / 2
  const mean = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0) / Math.max(1, values.length)
  let missingFromNewMessages = 0
  const byReason: Record<string, { calls: number; missing: number; meanPreviousRequestTokens: number }> = {}
  for (const record of records) {
    const missing = (1 - record.share) / records.length
    if (record.reason === undefined) {
      missingFromNewMessages += missing
      continue
    }
    const entry = (byReason[record.reason] ??= { calls: 0, missing: 0, meanPreviousRequestTokens: 0 })
    entry.meanPreviousRequestTokens = (entry.meanPreviousRequestTokens * entry.calls + record.previousRequestTokens) / (entry.calls + 1)
    entry.calls++
    entry.missing += missing
  }
  return {
    calls: records.length,
    mean: mean(shares),
    median,
    p10: at(0.1),
    meanRequestTokens: mean(records.map((record) => record.requestTokens)),
    meanReusedTokens: mean(records.map((record) => record.reusedTokens)),
    breaks: records.filter((record) => record.brokeAt !== undefined).length,
    missingFromNewMessages,
    missingByBreakReason: byReason,
  }
}

/**
 * Where the cache-friendly grid puts the start of history for this call, as the projector computes
 * it: the history region's raw tokens from a fixed origin, cut in chunks of (1 − low water) × budget.
 */
export interface CacheGrid {
  /** First seq the grid allows, or `undefined` when the whole region fits. */
  readonly start: number | undefined
  /** The budget the grid is sized for (input budget less system prompt, tool schemas, summary, memory). */
  readonly budget: number
  /** Raw tokens from the grid start to the newest entry (pending messages are not in the thread). */
  readonly tokensFromStart: number
}

export function cacheGrid(thread: Thread, policy: ContextPolicy, counter: TokenCounter, result: ProjectionResult): CacheGrid {
  const { entries, index } = thread
  const firstSeq = entries[0]?.seq ?? 0
  const lastSeq = firstSeq + entries.length - 1
  const sums = cumulativeTokens(entries, index, counter)
  const regionStart = result.meta.summary === undefined ? Math.max(firstSeq, index.resetSeq + 1) : result.meta.summary.toSeq + 1
  const tokens = result.meta.tokens
  const budget = Math.max(1, result.meta.budget.input - tokens.system - tokens.tools - tokens.summary - tokens.memory)
  const start = cacheWindowStart({
    sums,
    firstSeq,
    regionStart,
    lastSeq,
    pendingTokens: tokens.pending,
    budget,
    lowWaterRatio: policy.cacheLowWaterRatio,
  })
  const from = start ?? regionStart
  return { start, budget, tokensFromStart: (sums[lastSeq - firstSeq + 1] as number) - (sums[from - firstSeq] as number) }
}

/** The seq a model call's unit starts at (its first text or tool call), for a member entry. */
function unitStart(thread: Thread, entry: Entry): number {
  let callId = entry.refs.callId
  if (entry.kind === 'tool_result') {
    const callSeq = thread.index.callSeqByToolCallId.get(entry.refs.toolCallId as string)
    callId = callSeq === undefined ? undefined : thread.bySeq(callSeq)?.refs.callId
  }
  const members = callId === undefined ? undefined : thread.index.seqsByCallId.get(callId)
  return Math.min(entry.seq, members?.[0] ?? entry.seq)
}

/** Whether history is exactly what the grid allows: everything from its start, bar units that straddle it. */
function onGrid(thread: Thread, grid: CacheGrid, current: ProjectionResult): boolean {
  if (grid.start === undefined) return false
  const included = new Set(current.meta.includedSeqs)
  for (const entry of thread.slice(grid.start)) {
    if (!included.has(entry.seq) && unitStart(thread, entry) >= grid.start) return false
  }
  return true
}

/**
 * Why a threadlens request stopped repeating the previous one at message `at`. With `cache` (cache-friendly
 * policies), a moved window is told apart: on the grid (a chunk move, the intended break) or off it.
 */
export function threadlensBreak(
  previous: ProjectionResult,
  current: ProjectionResult,
  at: number,
  cache?: { readonly thread: Thread; readonly grid: CacheGrid; readonly currentTurnCut: boolean },
): { reason: string; detail: string } {
  const before = previous.meta.messages[at]
  const after = current.meta.messages[at]
  const firstHistory = (result: ProjectionResult): number | undefined => result.meta.messages.find((info) => info.segment === 'history')?.seqs[0]
  const seqText = (seq: number | undefined): string => (seq === undefined ? 'none' : `#${seq}`)
  const window = `history starts at ${seqText(firstHistory(current))} (was ${seqText(firstHistory(previous))}); previous request ${previous.meta.tokens.total} tokens`
  if (before === undefined) return { reason: 'other', detail: `message ${at} is new` }
  if (before.segment !== 'history') {
    return { reason: `${before.segment} message changed`, detail: `${before.segment} → ${after?.segment ?? 'nothing'}; ${window}` }
  }
  const seq = before.seqs[0] as number
  if (!current.meta.includedSeqs.includes(seq)) {
    const range = current.meta.dropped.find((dropped) => dropped.fromSeq <= seq && seq <= dropped.toSeq)
    const why = range?.reason ?? 'unknown'
    const start = firstHistory(current)
    if (cache !== undefined && (why === 'cache-window' || why === 'budget') && start !== undefined) {
      const { grid, thread } = cache
      const gridText = `grid start ${seqText(grid.start)}, ${grid.tokensFromStart} raw tokens from it + ${current.meta.tokens.pending} pending vs ${grid.budget}`
      if (cache.currentTurnCut) {
        // The grid start fell inside the turn in progress: only its user message (always kept) is left.
        return { reason: 'grid start past the newest tool results: the current turn was cut', detail: `${window}; ${gridText}` }
      }
      if (onGrid(thread, grid, current)) {
        const label = why === 'budget' ? ' (meta says budget: the unit straddling the grid point did not fit either)' : ''
        return { reason: 'window start moved: cache-window chunk', detail: `${window}; ${gridText}${label}` }
      }
      const pendingOverflow = grid.tokensFromStart + current.meta.tokens.pending > grid.budget
      return {
        reason: pendingOverflow
          ? 'window start moved off the grid: the pending message does not fit on top'
          : `window start moved off the grid: ${why}`,
        detail: `${window}; ${gridText}`,
      }
    }
    const label = why === 'budget' ? 'budget stop' : why === 'window' ? 'maxTurns/maxMessages' : why
    return { reason: `window start moved: ${label}`, detail: `entry #${seq} now dropped (${why}); ${window}` }
  }
  if (after !== undefined && after.seqs[0] === seq && after.reduced !== before.reduced) {
    return {
      reason: `tool result ${after.reduced ?? 'restored'} (left the keepLastTurns zone)`,
      detail: `entry #${seq} was ${before.reduced ?? 'sent whole'}, now ${after.reduced ?? 'sent whole'}; ${window}`,
    }
  }
  if (after !== undefined && after.seqs[0] !== seq)
    return { reason: 'window start moved back', detail: `older entry #${after.seqs[0]} re-included; ${window}` }
  return { reason: 'other', detail: `entry #${seq} changed; ${window}` }
}
