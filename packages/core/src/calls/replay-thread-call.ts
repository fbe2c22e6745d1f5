import type { Thread } from '../entries/thread'
import type { ContextPolicy } from '../policy/policy'
import type { ProjectionResult } from '../project/types'
import type { TokenCounter } from '../tokens/token-counter'
import { replayRecordedCall } from './replay-call'
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
 * `replayRecordedCall` for a `ThreadCall`, memoised per thread version, call, counter and
 * policy (core says which record it replays from).
 */
export function replayThreadCall(thread: Thread, call: ThreadCall, options: ReplayOptions): CallReplay {
  const record = call.record
  let byKey = cache.get(thread)
  if (byKey === undefined) cache.set(thread, (byKey = new Map()))
  const key = `${call.callId}\u0000${options.counter.id}\u0000${record?.policy === undefined ? JSON.stringify(options.fallbackPolicy) : 'recorded'}`
  const cached = byKey.get(key)
  if (cached !== undefined && cached.call === call) return cached
  const replayed = replayRecordedCall(thread.entries, record ?? { callId: call.callId }, { counter: options.counter, fallbackPolicy: options.fallbackPolicy, firstSeq: call.firstSeq })
  const replay: CallReplay = { call, result: replayed.projection, policySource: replayed.policySource, policy: replayed.policy, verified: replayed.verified }
  byKey.set(key, replay)
  return replay
}
