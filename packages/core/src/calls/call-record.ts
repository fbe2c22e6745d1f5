import type { JsonObject } from '../entries/entry'

/**
 * One model call, recorded on its assistant message (`entry.meta.call`), and one failed or retried
 * attempt of a call (a `CallAttempt`'s `record`). Policies, tool schemas and memory text are stored
 * once per thread (on the first call that used them) and referenced by hash after that; an attempt
 * that never reached the thread carries what the thread does not hold, so it replays on its own.
 */
export interface CallRecord {
  readonly model: string
  readonly provider: string
  /** The counter the projection used (its `id`). */
  readonly counter: string
  readonly policyHash: string
  /** The policy itself, on the first call that used it. */
  readonly policy?: JsonObject
  readonly toolsHash: string
  readonly tools?: readonly JsonObject[]
  readonly memoryHash?: string
  readonly memory?: string
  /** The call projected entries with seq below this (the thread as it was when the call was made). */
  readonly basisSeq: number
  /** Hash of the exact messages sent, to verify a replay. */
  readonly messagesHash: string
  /** Prompt tokens the provider reported, cached ones included. Absent when it did not say. */
  readonly inputTokens?: number
  readonly outputTokens?: number
  /** Prompt tokens the provider served from its cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cachedInputTokens?: number
  /** Prompt tokens the provider wrote to its cache (Anthropic `cache_creation_input_tokens`). */
  readonly cacheWriteInputTokens?: number
  /** The local count of what was sent (`projection.meta.tokens.total`), beside the provider's `inputTokens`. */
  readonly localInputTokens?: number
  /** Messages sent: with `localInputTokens` and `inputTokens`, one calibration sample. */
  readonly sentMessages?: number
  /** Older entries the recall block brought back (`meta.recall.seqs`); absent when it brought none. */
  readonly recalledEntries?: number
  /** The summary entry sent in place of older history (`meta.summary.seq`); absent when none was. */
  readonly summarySeq?: number
  /** The provider's stop reason, normalised (`stop`, `tool-calls`, `length`, `error`, `abort`, …). */
  readonly stopReason: string
  /** When the request was sent, in ms since the epoch (the first attempt's). */
  readonly startedAt?: number
  /** Milliseconds from sending the (last) attempt to its first streamed event. */
  readonly firstTokenMs?: number
  /** Milliseconds from `startedAt` to the end of the call, retries included. */
  readonly durationMs?: number
  /** HTTP requests the call took (1 when the first try answered). */
  readonly attempts?: number
  /**
   * The model steps of a call that ran several in one request (a tool loop on a server: each step's
   * tool results go straight back to the model), in order; the call's tokens are their sum. Absent
   * for a call of one step.
   */
  readonly steps?: readonly CallStep[]
}

/** One model step of a call that ran several (see `CallRecord.steps`). */
export interface CallStep {
  /** The step's stop reason (`tool-calls` for every step but the last of a finished loop). */
  readonly stopReason: string
  readonly inputTokens?: number
  readonly outputTokens?: number
  readonly cachedInputTokens?: number
  readonly cacheWriteInputTokens?: number
  /** Milliseconds from the step's start to its first streamed event. */
  readonly firstTokenMs?: number
  /** Milliseconds the step took. */
  readonly durationMs?: number
}

/** Most steps a call record keeps. */
export const maxCallSteps = 1_000

/**
 * - `ok`: answered (its record is on the assistant message);
 * - `retried`: failed, and the client tried again;
 * - `failed`: failed, and the call ended with that error;
 * - `aborted`: stopped by the user (or a timeout) before it answered.
 */
export type CallAttemptStatus = 'ok' | 'retried' | 'failed' | 'aborted'

/** Why an attempt failed: the error's class and its (already scrubbed, clipped) message. */
export interface CallAttemptError {
  readonly name: string
  readonly message: string
  /** HTTP status, when the provider answered with one. */
  readonly status?: number
}

/**
 * One HTTP attempt of a model call that did not end in a reply on the thread: failed, retried or
 * aborted. Kept beside the thread (the store's attempts log), never in it: a failed attempt does
 * not touch the thread.
 */
export interface CallAttempt {
  /** `${callId}#${attempt}`: unique per thread. */
  readonly id: string
  readonly threadId: string
  readonly callId: string
  readonly requestId?: string
  /** 1 for the first try of the call. */
  readonly attempt: number
  readonly status: Exclude<CallAttemptStatus, 'ok'>
  /** What was sent and when; `durationMs` is this attempt's own. */
  readonly record: CallRecord
  readonly error?: CallAttemptError
}

/** Longest error message kept in an attempt: messages are scrubbed of secrets before they are clipped here. */
export const maxAttemptErrorLength = 1_000
