import type { Entry } from '../entries/entry'
import type { MessageEntry } from '../entries/entry'
import { MESSAGE_OVERHEAD_TOKENS, messageTokens, REPLY_PRIMING_TOKENS } from '../tokens/token-counter'
import { latestVisible, type ProjectionContext } from './projection-context'
import type { PendingMessage } from './types'
import { entryAt } from './units'

/** What every request carries whatever the budget: system prompt, tools, pending messages, the latest user message. */
export interface FixedSegments {
  /** The system prompt with its overhead, plus the reply priming every request pays. */
  readonly systemTokens: number
  readonly toolTokens: number
  readonly pending: readonly PendingMessage[]
  readonly pendingCosts: readonly number[]
  readonly pendingTokens: number
  /** The thread's latest user message, kept whatever happens (unless a pending one takes its place). */
  readonly anchor: Entry | undefined
  readonly mandatoryTokens: number
}

export function measureFixedSegments(context: ProjectionContext): FixedSegments {
  const { input, include, index, visibleFrom, pendingHasUser } = context
  const { policy, counter } = input
  const systemTokens =
    REPLY_PRIMING_TOKENS + (policy.systemPrompt === undefined ? 0 : MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.systemPrompt))
  const toolTokens = input.tools === undefined ? 0 : counter.countTools(input.tools)
  const pending = input.pending ?? []
  const pendingCosts = pending.map((message) => messageTokens(message, (text) => counter.countCached(text)))
  let pendingTokens = 0
  for (const cost of pendingCosts) pendingTokens += cost

  // The user's latest message is never dropped: pending if there is one, else the thread's.
  const anchorSeq = pendingHasUser || !include.has('message') ? undefined : latestVisible(index.userSeqs, visibleFrom)
  const anchor = anchorSeq === undefined ? undefined : entryAt(context, anchorSeq)
  const anchorTokens = anchor === undefined ? 0 : context.messageCost(anchor as MessageEntry)
  return {
    systemTokens,
    toolTokens,
    pending,
    pendingCosts,
    pendingTokens,
    anchor,
    mandatoryTokens: systemTokens + toolTokens + pendingTokens + anchorTokens,
  }
}
