import type { ContextPolicy } from '../policy/policy'
import type { PendingMessage } from '../project/types'
import type { ToolSchema } from '../tokens/token-counter'
import type { CallRecord } from './call-record'
import type { Usage } from './usage'
import type { Entry } from '../entries/entry'
import { readCallRecords, type ReadCallRecord } from './read-call-records'

/**
 * What is known about one model call beyond the entries it wrote: read from the thread's call
 * record (core's `readRecordedCalls`), or given by an application for calls it made itself. Every
 * field but `callId` is optional: a replay uses what is there and falls back to the inspector's policy.
 */
export interface RecordedCall {
  readonly callId: string
  /** The record as stored on the thread (core's `CallRecord`), when the call has one. */
  readonly stored?: CallRecord
  /** The token counter the call was projected with (e.g. `o200k_base`). */
  readonly counter?: string
  /** The policy the call was projected with; replaying with it gives the exact messages sent. */
  readonly policy?: ContextPolicy
  readonly model?: string
  readonly usage?: Usage
  /** Prompt tokens as the local counter counted them, beside `usage.inputTokens`. */
  readonly localInputTokens?: number
  /** The provider's stop reason (`stop`, `tool-calls`, `length`, …). */
  readonly stopReason?: string
  /** Tool schemas the request carried. */
  readonly tools?: readonly ToolSchema[]
  /** Rendered memory text the request carried. */
  readonly memory?: string
  /** Messages sent that were not in the thread yet. */
  readonly pending?: readonly PendingMessage[]
  /** Milliseconds since the epoch. */
  readonly startedAt?: number
  /** The call's input is the thread before this seq (default: the call's first entry). */
  readonly basisSeq?: number
  /** Hash of the messages the call sent, to verify a replay (core's `hashJson(messages)`). */
  readonly messagesHash?: string
}

/** A record read from the thread (`readCallRecords`), as the `RecordedCall` applications and the devtools use. */
function recordedCallOf(read: ReadCallRecord): RecordedCall {
  const record = read.record
  return {
    callId: read.callId,
    stored: record,
    counter: record.counter,
    model: record.model,
    stopReason: record.stopReason,
    basisSeq: record.basisSeq,
    messagesHash: record.messagesHash,
    ...(read.policy === undefined ? {} : { policy: read.policy }),
    ...(read.tools === undefined || read.tools.length === 0 ? {} : { tools: read.tools }),
    ...(read.memory === undefined ? {} : { memory: read.memory }),
    ...(record.startedAt === undefined ? {} : { startedAt: record.startedAt }),
    ...(record.localInputTokens === undefined ? {} : { localInputTokens: record.localInputTokens }),
    ...(record.inputTokens === undefined || record.outputTokens === undefined
      ? {}
      : {
          usage: {
            inputTokens: record.inputTokens,
            outputTokens: record.outputTokens,
            ...(record.cachedInputTokens === undefined ? {} : { cachedInputTokens: record.cachedInputTokens }),
            ...(record.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: record.cacheWriteInputTokens }),
          },
        }),
  }
}

/** The calls' records as stored on the thread, hash references resolved, as `RecordedCall`s (by `callId`, oldest first). */
export function readRecordedCalls(entries: readonly Entry[]): RecordedCall[] {
  return readCallRecords(entries).map(recordedCallOf)
}
