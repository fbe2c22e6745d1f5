import { hashJson, type CallRecord, type ContextPolicy, type Entry, type JsonObject, type ProjectionResult, type TokenCounter, type ToolSchema } from '@threadlens/core'

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
export function buildCallRecord(options: {
  readonly model: string
  readonly provider: string
  readonly counter: TokenCounter
  readonly policy: ContextPolicy
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  /** The call projected the thread's entries with seq below this. */
  readonly basisSeq: number
  /** The thread's entries, to store each policy and tool list once. */
  readonly entries: readonly Entry[]
  readonly stopReason: string
  readonly usage: CallUsage | undefined
}): CallRecord {
  const policyHash = hashJson(options.policy)
  const toolsHash = hashJson(options.tools)
  const memoryHash = options.memory === undefined ? undefined : hashJson(options.memory)
  let policyStored = false
  let toolsStored = false
  let memoryStored = false
  for (const entry of options.entries) {
    const call = entry.meta?.call
    if (call === undefined) continue
    policyStored ||= call.policyHash === policyHash && call.policy !== undefined
    toolsStored ||= call.toolsHash === toolsHash && call.tools !== undefined
    memoryStored ||= call.memoryHash === memoryHash && call.memory !== undefined
  }
  const count = (value: number | undefined): number | undefined => (value === undefined || !Number.isFinite(value) || value < 0 ? undefined : Math.round(value))
  const inputTokens = count(options.usage?.inputTokens)
  const outputTokens = count(options.usage?.outputTokens)
  const cachedInputTokens = count(options.usage?.cachedInputTokens)
  return {
    model: options.model.slice(0, 256) || 'unknown',
    provider: options.provider.slice(0, 64) || 'unknown',
    counter: options.counter.id,
    policyHash,
    ...(policyStored ? {} : { policy: JSON.parse(JSON.stringify(options.policy)) as JsonObject }),
    toolsHash,
    ...(toolsStored ? {} : { tools: JSON.parse(JSON.stringify(options.tools)) as JsonObject[] }),
    ...(memoryHash === undefined ? {} : { memoryHash }),
    ...(memoryHash === undefined || memoryStored ? {} : { memory: options.memory as string }),
    basisSeq: options.basisSeq,
    messagesHash: hashJson(options.projection.messages),
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    stopReason: options.stopReason.slice(0, 64) || 'unknown',
  }
}
