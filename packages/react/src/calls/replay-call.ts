import { hashJson, project, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter } from '@threadlens/core'
import type { ThreadCall } from './thread-calls'

export interface ReplayOptions {
  /** Used when the call has no recorded policy. */
  readonly fallbackPolicy: ContextPolicy
  readonly counter: TokenCounter
}

export interface CallReplay {
  readonly call: ThreadCall
  readonly result: ProjectionResult
  /** `recorded`: projected with the policy the call used, so these are the exact messages sent. */
  readonly policySource: 'recorded' | 'fallback'
  readonly policy: ContextPolicy
  /** `true`/`false`: the replayed messages hash (un)like what the call recorded sending; `undefined`: no hash recorded. */
  readonly verified: boolean | undefined
}

const cache = new WeakMap<Thread, Map<string, CallReplay>>()

/**
 * What a past call sent: the thread before the call (its recorded `basisSeq`, else its first entry), projected with the call's
 * recorded policy (and its tools, memory and pending messages), or the fallback policy.
 * Memoised per thread version, call and policy.
 */
export function replayCall(thread: Thread, call: ThreadCall, options: ReplayOptions): CallReplay {
  const record = call.record
  const policy = record?.policy ?? options.fallbackPolicy
  let byKey = cache.get(thread)
  if (byKey === undefined) cache.set(thread, (byKey = new Map()))
  const key = `${call.callId}\u0000${options.counter.id}\u0000${record?.policy === undefined ? JSON.stringify(policy) : 'recorded'}`
  const cached = byKey.get(key)
  if (cached !== undefined && cached.call === call) return cached
  const basis = record?.basisSeq ?? call.firstSeq
  const before = thread.entries.slice(0, Math.max(0, basis - thread.firstSeq))
  const result = project({
    thread: before,
    policy,
    counter: options.counter,
    ...(record?.pending === undefined ? {} : { pending: record.pending }),
    ...(record?.tools === undefined ? {} : { tools: record.tools }),
    ...(record?.memory === undefined ? {} : { memory: record.memory }),
  })
  const verified = record?.messagesHash === undefined ? undefined : hashJson(result.messages) === record.messagesHash
  const replay: CallReplay = { call, result, policySource: record?.policy === undefined ? 'fallback' : 'recorded', policy, verified }
  byKey.set(key, replay)
  return replay
}
