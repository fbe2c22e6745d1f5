import type { Thread } from '../entries/thread'
import type { ContextPolicy } from '../policy/policy'
import type { TokenCounter } from '../tokens/token-counter'
import { hashJson } from '../utils/hash'
import { replayRecordedCall, type ReplayedCall } from './replay-call'
import type { ThreadCall } from './thread-calls'

export interface ReplayOptions {
  /** Used when the call has no recorded policy. */
  readonly fallbackPolicy: ContextPolicy
  readonly counter: TokenCounter
}

/** A replayed `ThreadCall`: core's `ReplayedCall`, with the call it replays. */
export type ThreadCallReplay = ReplayedCall & { readonly call: ThreadCall }

const cache = new WeakMap<Thread, Map<string, ThreadCallReplay>>()
/** A policy's identity, as a call record keeps it (`policyHash`), worked out once per policy object. */
const policyHashes = new WeakMap<ContextPolicy, string>()

function policyHashOf(policy: ContextPolicy): string {
  let hash = policyHashes.get(policy)
  if (hash === undefined) policyHashes.set(policy, (hash = hashJson(policy)))
  return hash
}

/**
 * `replayRecordedCall` for a `ThreadCall`, memoised per thread version, call, counter and
 * policy (core says which record it replays from).
 */
export function replayThreadCall(thread: Thread, call: ThreadCall, options: ReplayOptions): ThreadCallReplay {
  const record = call.record
  let byKey = cache.get(thread)
  if (byKey === undefined) cache.set(thread, (byKey = new Map()))
  const key = `${call.callId}\u0000${options.counter.id}\u0000${record?.policy === undefined ? policyHashOf(options.fallbackPolicy) : 'recorded'}`
  const cached = byKey.get(key)
  if (cached !== undefined && cached.call === call) return cached
  const replayed = replayRecordedCall(thread.entries, record ?? { callId: call.callId }, {
    counter: options.counter,
    fallbackPolicy: options.fallbackPolicy,
    firstSeq: call.firstSeq,
  })
  const replay: ThreadCallReplay = { ...replayed, call }
  byKey.set(key, replay)
  return replay
}
