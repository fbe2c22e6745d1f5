import type { CallRecord, EntryInput } from '@threadlens/core'
import { callRecord, type CallAttempt, type CallTiming, type Usage } from '@threadlens/core/calls'
import type { ToolCallEvent } from '../model/model-client'
import { attemptErrorOf } from './call-attempt-log'
import type { RequestState, SentCall, SessionInternals } from './session-internals'

/** The record of what one model call sent and what came back: written with the reply, or to the call log. */
function recordOf(session: SessionInternals, sent: SentCall & { usage: Usage | undefined }, stopReason: string, timing: CallTiming): CallRecord {
  return callRecord({
    model: session.options.model.id,
    provider: session.options.model.provider,
    counter: sent.counter,
    policy: sent.policy,
    tools: sent.tools,
    memory: sent.memory,
    projection: sent.projection,
    basisSeq: sent.basisSeq,
    stored: session.mirror.stored,
    stopReason,
    usage: sent.usage,
    hashes: sent.hashes,
    timing,
  })
}

/** One model call's reply, written at once: its assistant message (with the call record) and its tool calls. */
export async function appendReply(
  session: SessionInternals,
  state: RequestState,
  callId: string,
  reply: { readonly text: string; readonly calls: readonly ToolCallEvent[] },
  call: SentCall & { usage: Usage | undefined; stopReason: string; interrupted: boolean; timing: CallTiming },
): Promise<void> {
  const refs = { requestId: state.requestId, callId, iteration: state.iteration }
  const record = recordOf(session, call, call.stopReason, call.timing)
  await session.mirror.append([
    { kind: 'message', payload: { role: 'assistant', content: reply.text }, refs, meta: { call: record, ...(call.interrupted ? { interrupted: true } : {}) } },
    ...reply.calls.map((toolCall): EntryInput => ({ kind: 'tool_call', payload: { name: toolCall.name, arguments: toolCall.arguments }, refs: { ...refs, toolCallId: toolCall.toolCallId } })),
  ])
}

/** One attempt that did not end in a reply on the thread. */
export interface LoggedAttempt extends SentCall {
  readonly state: RequestState
  readonly callId: string
  readonly status: CallAttempt['status']
  readonly error: unknown
  readonly attempt: number
  readonly usage: Usage | undefined
  readonly startedAt: number
  readonly firstTokenMs: number | undefined
  readonly durationMs: number
}

/**
 * Keeps an attempt that did not end in a reply on the thread (failed, retried, aborted) in the call
 * log, never in the thread. Its record carries what the thread does not hold, so it replays alone.
 * A log that fails to write must not fail the call: it is reported and the call goes on.
 */
export async function logAttempt(session: SessionInternals, attempt: LoggedAttempt): Promise<void> {
  const log = session.options.callLog
  if (log === undefined) return
  const record = recordOf(session, attempt, attempt.status === 'aborted' ? 'abort' : 'error', {
    startedAt: attempt.startedAt,
    firstTokenMs: attempt.firstTokenMs,
    durationMs: Math.max(0, attempt.durationMs),
    attempts: attempt.attempt,
  })
  const entry: CallAttempt = {
    id: `${attempt.callId}#${attempt.attempt}`,
    threadId: session.threadId,
    callId: attempt.callId,
    requestId: attempt.state.requestId,
    attempt: attempt.attempt,
    status: attempt.status,
    record,
    ...(attempt.error === undefined ? {} : { error: attemptErrorOf(attempt.error) }),
  }
  try {
    await log.recordAttempt(entry)
  } catch (error) {
    console.warn('[threadlens] a failed model call could not be written to the call log; the session goes on:', error)
  }
}
