import { type CallRecord, type Entry } from '@threadlens/core'
import { callRecord, StoredHashes, type CallRecordOptions, type CallTiming, type Usage } from '@threadlens/core/calls'
import type { LanguageModelUsage } from 'ai'

const count = (value: number | undefined): number | undefined =>
  value === undefined || !Number.isFinite(value) || value < 0 ? undefined : Math.round(value)

/**
 * The AI SDK's usage as core's `Usage`: `undefined` unless the provider reported both input
 * and output tokens; cache reads and writes when it reported them.
 */
export function reportedUsage(usage: LanguageModelUsage | undefined): Usage | undefined {
  const inputTokens = count(usage?.inputTokens)
  const outputTokens = count(usage?.outputTokens)
  if (inputTokens === undefined || outputTokens === undefined) return undefined
  const cachedInputTokens = count(usage?.inputTokenDetails?.cacheReadTokens)
  const cacheWriteInputTokens = count(usage?.inputTokenDetails?.cacheWriteTokens)
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
  }
}

/**
 * The record of one model call in core's `CallRecord` shape: the policy and tool schemas inline the
 * first time the thread sees them, by hash after that; the hash of the projected messages, so a
 * replay of the call from the thread can be verified.
 */
export function buildCallRecord(
  options: Pick<CallRecordOptions, 'model' | 'provider' | 'counter' | 'policy' | 'tools' | 'memory' | 'projection' | 'basisSeq' | 'stopReason'> & {
    /** The thread's entries, to store each policy and tool list once. */
    readonly entries: readonly Entry[]
    /** Core's usage type; `reportedUsage` converts the AI SDK's. */
    readonly usage: Usage | undefined
    /** When the call was sent and, once it ended, how long it took. Default: not recorded. */
    readonly timing?: CallTiming
  },
): CallRecord {
  // Core writes the record; this only fits what the AI SDK reports to it.
  const stored = new StoredHashes()
  stored.addFrom(options.entries)
  return callRecord({
    model: options.model.slice(0, 256) || 'unknown',
    provider: options.provider.slice(0, 64) || 'unknown',
    counter: options.counter,
    policy: options.policy,
    tools: options.tools,
    memory: options.memory,
    projection: options.projection,
    basisSeq: options.basisSeq,
    stored,
    stopReason: options.stopReason.slice(0, 64) || 'unknown',
    usage: options.usage,
    ...(options.timing === undefined ? {} : { timing: options.timing }),
  })
}
