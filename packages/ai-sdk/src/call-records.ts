import { type CallRecord, type Entry } from '@threadlens/core'
import { callRecord, StoredHashes, type CallRecordOptions, type ReportedUsage } from '@threadlens/core/calls'

export interface CallUsage {
  readonly inputTokens?: number | undefined
  readonly outputTokens?: number | undefined
  readonly cachedInputTokens?: number | undefined
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
    readonly usage: CallUsage | undefined
  },
): CallRecord {
  // Core writes the record; this only fits what the AI SDK reports (possibly partial) to it.
  const stored = new StoredHashes()
  stored.addFrom(options.entries)
  const count = (value: number | undefined): number | undefined => (value === undefined || !Number.isFinite(value) || value < 0 ? undefined : Math.round(value))
  const inputTokens = count(options.usage?.inputTokens)
  const outputTokens = count(options.usage?.outputTokens)
  const cachedInputTokens = count(options.usage?.cachedInputTokens)
  const usage: ReportedUsage | undefined =
    inputTokens === undefined || outputTokens === undefined ? undefined : { inputTokens, outputTokens, ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }) }
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
    usage,
  })
}
