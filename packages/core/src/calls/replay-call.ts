import type { Entry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { ReplayError } from '../errors/threadlens-error'
import type { ContextPolicy } from '../policy/policy'
import { project } from '../project/project'
import type { PendingMessage, ProjectionResult } from '../project/types'
import { estimateIdEncoding } from '../tokens/estimated-counter'
import type { TokenCounter, ToolSchema } from '../tokens/token-counter'
import { hashJson } from '../utils/hash'
import type { CallRecord } from './call-record'
import { CallParts } from './read-call-records'
import type { RecordedCall } from './recorded-call'

export interface ReplayCallOptions {
  /** The counter the call used (`record.counter`); another one is a `ReplayError`, as its counts would differ. */
  readonly counter: TokenCounter
  /**
   * For a call whose policy is not recorded (a thread written without the agent) or not loaded: project
   * with this one instead, and say so (`policySource: 'fallback'`). Default: none, such a call is a `ReplayError`.
   */
  readonly fallbackPolicy?: ContextPolicy
  /** For a call with no record: its input is the thread before this seq. Default: the whole thread. */
  readonly basisSeq?: number
  /** Messages the call sent that were not in the thread yet. Default: none. */
  readonly pending?: readonly PendingMessage[]
  /** For a call with no record: the tool schemas it sent. Default: none. */
  readonly tools?: readonly ToolSchema[]
  /** For a call with no record: the memory text it sent. Default: none. */
  readonly memory?: string
}

export interface ReplayedCall {
  readonly callId: string | undefined
  readonly record: CallRecord | undefined
  readonly policy: ContextPolicy
  /** `recorded`: projected with the policy the call used, so these are the exact messages sent. */
  readonly policySource: 'recorded' | 'fallback'
  readonly tools: readonly ToolSchema[]
  /** The projection rebuilt from the thread as it was when the call was made. */
  readonly projection: ProjectionResult
  /** `true`/`false`: the rebuilt messages hash (un)like what the call recorded sending; `undefined`: nothing recorded. */
  readonly verified: boolean | undefined
}

/** How to make the counter a record names: the estimate that stood in while the ranks loaded, or a built-in one. */
function counterCall(id: string): string {
  const estimated = estimateIdEncoding(id)
  return estimated === undefined ? `createTokenCounter('${id}')` : `estimatedTokenCounter('${estimated}')`
}

/**
 * The exact messages a past model call (or one failed attempt of it) sent, rebuilt from the thread:
 * the entries before the call, projected again with the recorded policy, tool schemas and memory
 * text (projection is deterministic), and checked against the recorded messages hash.
 * `call` is a call id (its record is found on the thread), a record (e.g. a `CallAttempt`'s), or
 * `undefined` for a call made without a record: the thread before `options.basisSeq`, projected with
 * `options.fallbackPolicy`, tools, memory and pending messages.
 */
export function replayCall(thread: ThreadSource | readonly Entry[], call: string | CallRecord | undefined, options: ReplayCallOptions): ReplayedCall {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const callId = typeof call === 'string' ? call : undefined
  const record =
    call === undefined
      ? undefined
      : typeof call === 'string'
        ? entries.find((entry) => entry.refs.callId === call && entry.meta?.call !== undefined)?.meta?.call
        : call
  if (record === undefined && options.fallbackPolicy === undefined) throw new ReplayError(`No model call "${callId}" is recorded in this thread.`)
  if (record !== undefined && record.counter !== options.counter.id) {
    throw new ReplayError(
      `Call "${callId ?? record.messagesHash}" was counted with "${record.counter}"; pass that counter (${counterCall(record.counter)}).`,
    )
  }
  const parts = new CallParts()
  if (record !== undefined) parts.add(record)
  parts.addFrom(entries)
  const recordedPolicy = record === undefined ? undefined : parts.policy(record)
  const policy = recordedPolicy ?? options.fallbackPolicy
  const tools = record === undefined ? (options.tools ?? []) : parts.tools(record)
  const memory = record === undefined ? options.memory : parts.memory(record)
  if (policy === undefined || tools === undefined || memory === null) {
    throw new ReplayError(
      `Call "${callId ?? record?.messagesHash}" refers to a policy, tool list or memory that is not stored in the loaded part of the thread: load the whole thread.`,
    )
  }
  const firstSeq = entries[0]?.seq ?? 0
  const basisSeq = record?.basisSeq ?? options.basisSeq
  const basis = basisSeq === undefined ? entries : entries.slice(0, Math.max(0, basisSeq - firstSeq))
  const projection = project({
    thread: basis,
    policy,
    counter: options.counter,
    tools,
    ...(memory === undefined ? {} : { memory }),
    ...(options.pending === undefined ? {} : { pending: options.pending }),
  })
  return {
    callId,
    record,
    policy,
    policySource: recordedPolicy === undefined ? 'fallback' : 'recorded',
    tools,
    projection,
    verified: record === undefined ? undefined : hashJson(projection.messages) === record.messagesHash,
  }
}

/** Whether a recorded call replays from its stored record: it has one, and the application's details (if any) do not point elsewhere. */
function storedRecordApplies(call: RecordedCall): call is RecordedCall & { readonly stored: CallRecord } {
  const stored = call.stored
  return (
    stored !== undefined &&
    (call.basisSeq ?? stored.basisSeq) === stored.basisSeq &&
    (call.messagesHash ?? stored.messagesHash) === stored.messagesHash
  )
}

export interface ReplayRecordedCallOptions {
  readonly counter: TokenCounter
  /** The policy for a call whose own is not known. */
  readonly fallbackPolicy: ContextPolicy
  /** The call's first entry: without a recorded basis, its input is the thread before it. */
  readonly firstSeq: number
}

/**
 * Replays a `RecordedCall` (a thread's stored record, with an application's details over it, or the
 * application's details alone): from the stored record when the application's basis and messages
 * hash agree with it, else from the application's details (basis, policy, tools, memory, pending)
 * over the thread before the call, verified against its messages hash when it gave one. The one
 * rule for which record a replay uses.
 */
export function replayRecordedCall(entries: readonly Entry[], call: RecordedCall, options: ReplayRecordedCallOptions): ReplayedCall {
  if (storedRecordApplies(call))
    return replayCall(entries, call.stored, { counter: options.counter, fallbackPolicy: call.policy ?? options.fallbackPolicy })
  const replayed = replayCall(entries, undefined, {
    counter: options.counter,
    fallbackPolicy: call.policy ?? options.fallbackPolicy,
    basisSeq: call.basisSeq ?? options.firstSeq,
    ...(call.pending === undefined ? {} : { pending: call.pending }),
    ...(call.tools === undefined ? {} : { tools: call.tools }),
    ...(call.memory === undefined ? {} : { memory: call.memory }),
  })
  return {
    ...replayed,
    callId: call.callId,
    policySource: call.policy === undefined ? 'fallback' : 'recorded',
    verified: call.messagesHash === undefined ? undefined : hashJson(replayed.projection.messages) === call.messagesHash,
  }
}
