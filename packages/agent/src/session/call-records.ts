import type { CallRecord, ContextPolicy, EntryInput, EntryRefs, ProjectionResult, TokenCounter, ToolSchema } from '@threadlens/core'
import {
  calibrationVerdict,
  callRecord,
  maxAttemptErrorLength,
  type CallAttempt,
  type CallHashes,
  type CallLog,
  type CallTiming,
  type StoredHashes,
  type Usage,
} from '@threadlens/core/calls'
import type { ModelClient, ToolCallEvent } from '../model/model-client'
import type { SessionEvent } from './session-events'

// How the session turns a model call into records: pure builders, and the two writes that must
// never fail a call (the attempts log, the calibration). The request decides when each is written.

/** What one model call sent: enough to write its record and replay it. */
export interface SentCall {
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  readonly basisSeq: number
  readonly hashes: CallHashes
}

/** How a call (or one attempt of it) ended, as its record keeps it. */
export interface CallEnd {
  readonly usage: Usage | undefined
  readonly stopReason: string
  readonly timing: CallTiming
}

/** The record of what one model call sent and what came back; what `stored` already holds is referenced by hash. */
export function recordOfCall(model: Pick<ModelClient, 'id' | 'provider'>, stored: StoredHashes, sent: SentCall, end: CallEnd): CallRecord {
  return callRecord({ ...sent, ...end, model: model.id, provider: model.provider, stored })
}

/** One model call's reply, to be written at once: its assistant message (the call record in `meta.call`) and its tool calls. */
export function replyEntries(
  reply: { readonly text: string; readonly calls: readonly ToolCallEvent[] },
  record: CallRecord,
  refs: EntryRefs,
  interrupted: boolean,
): EntryInput[] {
  return [
    {
      kind: 'message',
      payload: { role: 'assistant', content: reply.text },
      refs,
      meta: { call: record, ...(interrupted ? { interrupted: true } : {}) },
    },
    ...reply.calls.map((toolCall): EntryInput => ({
      kind: 'tool_call',
      payload: { name: toolCall.name, arguments: toolCall.arguments },
      refs: { ...refs, toolCallId: toolCall.toolCallId },
    })),
  ]
}

/**
 * Keeps an attempt that did not end in a reply on the thread (failed, retried, aborted) in the call
 * log, never in the thread. Its record carries what the thread does not hold, so it replays alone.
 * A log that fails to write must not fail the call: it is reported and the call goes on.
 */
export async function logAttempt(log: CallLog, attempt: Omit<CallAttempt, 'id' | 'error'> & { readonly error: unknown }): Promise<void> {
  const { threadId, callId, requestId, status, record, error } = attempt
  const entry: CallAttempt = {
    id: `${callId}#${attempt.attempt}`,
    threadId,
    callId,
    ...(requestId === undefined ? {} : { requestId }),
    attempt: attempt.attempt,
    status,
    record,
    ...(error === undefined ? {} : { error: attemptErrorOf(error) }),
  }
  try {
    await log.recordAttempt(entry)
  } catch (failure) {
    console.warn('[threadlens] a failed model call could not be written to the call log; the session goes on:', failure)
  }
}

/** The model's calibration after a call's counts were added (by the store, with the reply); says whether an exact counter is off. */
export async function calibrationEvent(
  log: CallLog | undefined,
  model: string,
  counter: TokenCounter,
  projection: ProjectionResult,
  usage: Usage,
): Promise<SessionEvent | undefined> {
  const local = projection.meta.tokens.total
  if (log === undefined || local <= 0 || usage.inputTokens <= 0) return undefined
  try {
    // The thread store added this call's sample in the reply's own transaction; read what it made.
    const calibration = log.recentCalibration?.(model, counter.id) ?? (await log.calibration(model, counter.id))
    if (calibration === undefined) return undefined
    const verdict = calibrationVerdict(calibration, { exact: counter.exact, defaultMargin: 0 })
    return { type: 'calibration-update', model: calibration.model, counter: calibration.counter, calibration, mismatch: verdict.mismatch }
  } catch (error) {
    console.warn('[threadlens] the token calibration could not be saved; the session goes on:', error)
    return undefined
  }
}

/** The error of an attempt as the record keeps it: class, status, and the message (providers' are scrubbed of keys already), clipped. */
export function attemptErrorOf(error: unknown): NonNullable<CallAttempt['error']> {
  const name = error instanceof Error ? error.name || 'Error' : typeof error
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { status?: unknown } | null)?.status
  return {
    name: name.slice(0, 128),
    message: message.slice(0, maxAttemptErrorLength),
    ...(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599 ? { status } : {}),
  }
}
