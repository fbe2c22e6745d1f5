import { replayCall, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter } from '@threadlens/core'
import { hashJson } from '@threadlens/core/internal'
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
 * Core's `replayCall` for a `ThreadCall`, memoised per thread version, call, counter and policy.
 * A call recorded on the thread replays from its record; one the application recorded itself (or
 * none) replays from the thread before its `basisSeq` (else its first entry) with what it gave.
 */
export function replayThreadCall(thread: Thread, call: ThreadCall, options: ReplayOptions): CallReplay {
  const record = call.record
  let byKey = cache.get(thread)
  if (byKey === undefined) cache.set(thread, (byKey = new Map()))
  const key = `${call.callId}\u0000${options.counter.id}\u0000${record?.policy === undefined ? JSON.stringify(options.fallbackPolicy) : 'recorded'}`
  const cached = byKey.get(key)
  if (cached !== undefined && cached.call === call) return cached
  let replay: CallReplay
  // An application's record may override the stored one (another basis or policy): then it is what replays.
  const stored = record?.stored
  if (stored !== undefined && (record?.basisSeq ?? stored.basisSeq) === stored.basisSeq && (record?.messagesHash ?? stored.messagesHash) === stored.messagesHash) {
    const replayed = replayCall(thread.entries, stored, { counter: options.counter, fallbackPolicy: record?.policy ?? options.fallbackPolicy })
    replay = { call, result: replayed.projection, policySource: replayed.policySource, policy: replayed.policy, verified: replayed.verified }
  } else {
    const policy = record?.policy ?? options.fallbackPolicy
    const replayed = replayCall(thread.entries, undefined, {
      counter: options.counter,
      fallbackPolicy: policy,
      basisSeq: record?.basisSeq ?? call.firstSeq,
      ...(record?.pending === undefined ? {} : { pending: record.pending }),
      ...(record?.tools === undefined ? {} : { tools: record.tools }),
      ...(record?.memory === undefined ? {} : { memory: record.memory }),
    })
    const result = replayed.projection
    const verified = record?.messagesHash === undefined ? undefined : hashJson(result.messages) === record.messagesHash
    replay = { call, result, policySource: record?.policy === undefined ? 'fallback' : 'recorded', policy, verified }
  }
  byKey.set(key, replay)
  return replay
}
