import {
  definePolicy,
  hashJson,
  project,
  type CallRecord,
  type ContextPolicy,
  type Entry,
  type JsonObject,
  type ProjectionResult,
  type ThreadSource,
  type TokenCounter,
  type ToolSchema,
} from '@threadlens/core'
import { ReplayError } from './errors'

const hashOf = hashJson

/** Hashes already stored in a thread's call records (so each policy, tool list and memory text is stored once). */
export class StoredHashes {
  readonly #seen = new Set<string>()

  addFrom(entries: readonly Entry[]): void {
    for (const entry of entries) {
      const call = entry.meta?.call
      if (call === undefined) continue
      if (call.policy !== undefined) this.#seen.add(`p:${call.policyHash}`)
      if (call.tools !== undefined) this.#seen.add(`t:${call.toolsHash}`)
      if (call.memory !== undefined && call.memoryHash !== undefined) this.#seen.add(`m:${call.memoryHash}`)
    }
  }

  has(kind: 'p' | 't' | 'm', hash: string): boolean {
    return this.#seen.has(`${kind}:${hash}`)
  }
}

/** The record for one call: what is new is stored inline, what the thread already holds by hash. */
export function callRecord(options: {
  readonly model: string
  readonly provider: string
  readonly counter: TokenCounter
  readonly policy: ContextPolicy
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  readonly basisSeq: number
  readonly stored: StoredHashes
  readonly stopReason: string
  readonly usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number } | undefined
}): CallRecord {
  const policyHash = hashOf(options.policy)
  const toolsHash = hashOf(options.tools)
  const memoryHash = options.memory === undefined ? undefined : hashOf(options.memory)
  return {
    model: options.model,
    provider: options.provider,
    counter: options.counter.id,
    policyHash,
    ...(options.stored.has('p', policyHash) ? {} : { policy: JSON.parse(JSON.stringify(options.policy)) as JsonObject }),
    toolsHash,
    ...(options.stored.has('t', toolsHash) ? {} : { tools: JSON.parse(JSON.stringify(options.tools)) as JsonObject[] }),
    ...(memoryHash === undefined ? {} : { memoryHash }),
    ...(memoryHash === undefined || options.stored.has('m', memoryHash) ? {} : { memory: options.memory as string }),
    basisSeq: options.basisSeq,
    messagesHash: hashOf(options.projection.messages),
    ...(options.usage === undefined
      ? {}
      : {
          inputTokens: options.usage.inputTokens,
          outputTokens: options.usage.outputTokens,
          ...(options.usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: options.usage.cachedInputTokens }),
        }),
    stopReason: options.stopReason,
  }
}

export interface ReplayedCall {
  readonly callId: string
  readonly record: CallRecord
  readonly policy: ContextPolicy
  readonly tools: readonly ToolSchema[]
  /** The projection rebuilt from the thread as it was when the call was made. */
  readonly projection: ProjectionResult
  /** `true` when the rebuilt messages hash to what the call recorded sending. */
  readonly verified: boolean
}

/**
 * The exact messages a past model call sent, rebuilt from the thread: the entries before the call,
 * the recorded policy, tool schemas and memory text, projected again (projection is deterministic).
 * `counter` must be the counter the call used (`record.counter`).
 */
export function replayCall(thread: ThreadSource | readonly Entry[], callId: string, counter: TokenCounter): ReplayedCall {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const entry = entries.find((candidate) => candidate.refs.callId === callId && candidate.meta?.call !== undefined)
  const record = entry?.meta?.call
  if (entry === undefined || record === undefined) throw new ReplayError(`No model call "${callId}" is recorded in this thread.`)
  if (record.counter !== counter.id) {
    throw new ReplayError(`Call "${callId}" was counted with "${record.counter}"; pass that counter (createTokenCounter('${record.counter}')).`)
  }
  const find = <T>(pick: (call: CallRecord) => T | undefined): T | undefined => {
    for (const candidate of entries) {
      if (candidate.seq > entry.seq) break
      const value = candidate.meta?.call === undefined ? undefined : pick(candidate.meta.call)
      if (value !== undefined) return value
    }
    return undefined
  }
  const policyData = find((call) => (call.policyHash === record.policyHash ? call.policy : undefined))
  const tools = find((call) => (call.toolsHash === record.toolsHash ? call.tools : undefined)) as readonly ToolSchema[] | undefined
  const memory = record.memoryHash === undefined ? undefined : find((call) => (call.memoryHash === record.memoryHash ? call.memory : undefined))
  if (policyData === undefined || tools === undefined || (record.memoryHash !== undefined && memory === undefined)) {
    throw new ReplayError(`Call "${callId}" refers to a policy, tool list or memory that is not stored in the loaded part of the thread: load the whole thread.`)
  }
  const policy = definePolicy(policyData as never)
  const firstSeq = entries[0]?.seq ?? 0
  const basis = entries.slice(0, record.basisSeq - firstSeq)
  const projection = project({ thread: basis, policy, counter, tools, ...(memory === undefined ? {} : { memory }) })
  return { callId, record, policy, tools, projection, verified: hashOf(projection.messages) === record.messagesHash }
}
