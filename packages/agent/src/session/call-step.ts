import { BudgetOverflowError, type ContextPolicy, type ThreadlensEvent, type TokenCounter, type ToolSchema } from '@threadlens/core'
import { callHashes, type CallAttempt, type CallTiming, type Usage } from '@threadlens/core/calls'
import { ContextTooLongError } from '../model/errors'
import type { ModelStreamEvent, StopReason, ToolCallEvent } from '../model/model-client'
import type { RetryNotice } from '../model/stream-with-retries'
import { calibrationEvent } from './call-attempt-log'
import { appendReply, logAttempt } from './call-writing'
import type { ContextFitting } from './context-fitting'
import { callPolicy, MAX_CONTEXT_RECOVERIES, type ModelCallBudget } from './context-recovery'
import type { SessionEvent } from './session-events'
import type { RequestState, SentCall, SessionInternals } from './session-internals'
import type { ToolRuns } from './tool-runs'
import { ToolCallIds } from './unique-tool-call-ids'
import { withNotices } from './with-notices'

/** The most calls a snapshot lists: older ones are on the thread's own records. */
const MAX_SNAPSHOT_CALLS = 50

/** What one request's calls share: the parts that do the work and the "context too long" recoveries so far. */
export interface CallStepContext {
  readonly session: SessionInternals
  readonly fitting: ContextFitting
  readonly toolRuns: ToolRuns
  readonly state: RequestState
  readonly counter: TokenCounter
  readonly tools: readonly ToolSchema[]
  /** Every model call of the request takes one from it (see `maxModelCalls`). */
  readonly budget: ModelCallBudget
  /** The recoveries from "context too long" so far, and the last such error. */
  readonly recovery: { count: number; error: ContextTooLongError | undefined }
}

/** How a call step ended: `again` (recovered: call again), `next` (tools ran: next iteration), `end` (the request is over). */
export type CallStepEnd = 'again' | 'next' | 'end'

/** What a call streamed so far: kept outside the stream, so a failure still knows the partial reply. */
interface CallProgress {
  text: string
  readonly toolCalls: ToolCallEvent[]
  usage: Usage | undefined
  stopReason: StopReason
  /** The attempt in progress: its number (1 for the first), when it started and its first token. */
  readonly attempt: { number: number; startedAt: number; firstTokenMs: number | undefined }
  readonly startedAt: number
}

/** One model call of the loop: fit the context, stream the reply, write it, run its tools. */
export async function* callStep(context: CallStepContext): AsyncGenerator<SessionEvent, CallStepEnd> {
  const { session, state } = context
  const policy = callPolicy(session, state.policy)
  const callId = session.createId()
  const sent = yield* prepareCall(context, policy, callId)
  context.budget.take()
  const startedAt = session.now()
  const progress: CallProgress = { text: '', toolCalls: [], usage: undefined, stopReason: 'stop', attempt: { number: 1, startedAt, firstTokenMs: undefined }, startedAt }
  const mirror = await session.mirror.thread()
  const toolCallIds = new ToolCallIds((toolCallId) => mirror.index.callSeqByToolCallId.has(toolCallId))
  try {
    yield* streamCall(context, sent, callId, progress, toolCallIds)
  } catch (error) {
    session.update({ status: 'awaiting-model', retry: undefined })
    await logProgress(context, sent, callId, progress, state.controller.signal.aborted ? 'aborted' : 'failed', error)
    if (yield* recoverable(context, sent, progress, error)) return 'again'
    const timing = timingOf(progress, session.now())
    if (progress.text !== '') {
      await appendReply(session, state, callId, { text: progress.text, calls: [] }, { ...sent, usage: progress.usage, stopReason: 'error', interrupted: true, timing })
    }
    throw error
  }
  return yield* finishCall(context, sent, callId, progress)
}

/** Fits the context, announces the projection and lists the call in the snapshot. */
async function* prepareCall(context: CallStepContext, policy: ContextPolicy, callId: string): AsyncGenerator<SessionEvent, SentCall> {
  const { session, state, counter, tools } = context
  const events: ThreadlensEvent[] = []
  const fitted = await context.fitting.fit(policy, counter, tools, (event) => events.push(event)).catch((error: unknown) => {
    // What must be sent does not fit the window the server named: its own error says it best.
    throw context.recovery.error !== undefined && BudgetOverflowError.isInstance(error) ? context.recovery.error : error
  })
  const { projection, memory, basisSeq } = fitted
  yield* events
  yield { type: 'projection-end', requestId: state.requestId, callId, iteration: state.iteration, projection }
  const listed = { callId, policy, counter: counter.id, model: session.options.model.id, tools, ...(memory === undefined ? {} : { memory }), basisSeq, startedAt: session.now() }
  session.update({
    status: 'awaiting-model',
    lastProjection: projection,
    streamingText: '',
    memory,
    calls: [...session.snapshot().calls.slice(-(MAX_SNAPSHOT_CALLS - 1)), listed],
  })
  return { policy, counter, tools, memory, projection, basisSeq, hashes: callHashes({ policy, tools, memory, projection }) }
}

/** Streams the model's reply into `progress`, passing on its events and each retry wait. */
async function* streamCall(context: CallStepContext, sent: SentCall, callId: string, progress: CallProgress, toolCallIds: ToolCallIds): AsyncGenerator<SessionEvent, void> {
  const { session, state } = context
  const attachmentData = session.options.attachments === undefined ? undefined : await session.options.attachments.dataFor(sent.projection)
  const stream = withNotices<ModelStreamEvent, RetryNotice>((onRetry) =>
    session.options.model.stream({
      projection: sent.projection,
      tools: sent.tools,
      ...(attachmentData === undefined ? {} : { attachmentData }),
      signal: state.controller.signal,
      onRetry,
      ...(session.options.maxOutputTokens === undefined ? {} : { maxOutputTokens: session.options.maxOutputTokens }),
    }),
  )
  for await (const item of stream) {
    if (item.kind === 'notice') {
      const { error, attempt: next, maxAttempts, delayMs, retryAt } = item.value
      await logProgress(context, sent, callId, progress, 'retried', error)
      Object.assign(progress.attempt, { number: next, startedAt: retryAt, firstTokenMs: undefined })
      const retry = { error, attempt: next, maxAttempts, delayMs, retryAt }
      session.update({ status: 'retrying', retry })
      yield { type: 'retry-wait', requestId: state.requestId, callId, ...retry }
      continue
    }
    progress.attempt.firstTokenMs ??= Math.max(0, session.now() - progress.attempt.startedAt)
    if (session.snapshot().status === 'retrying') session.update({ status: 'awaiting-model', retry: undefined })
    yield* streamEvent(session, callId, item.value, progress, toolCallIds)
  }
}

/** One model stream event: kept in `progress` and passed on as the session's own event. */
function* streamEvent(session: SessionInternals, callId: string, event: ModelStreamEvent, progress: CallProgress, toolCallIds: ToolCallIds): Generator<SessionEvent, void> {
  if (event.type === 'text-delta') {
    progress.text += event.text
    session.update({ streamingText: progress.text })
    yield { type: 'text-delta', callId, text: event.text }
  } else if (event.type === 'tool-call-start') yield { type: 'tool-call-start', callId, toolCallId: toolCallIds.start(event.toolCallId), name: event.name }
  else if (event.type === 'tool-call') {
    const call = { ...event, toolCallId: toolCallIds.complete(event.toolCallId) }
    progress.toolCalls.push(call)
    yield { type: 'tool-call', callId, toolCallId: call.toolCallId, name: call.name, arguments: call.arguments }
  } else if (event.type === 'usage') {
    progress.usage = event
    yield { type: 'usage', callId, inputTokens: event.inputTokens, outputTokens: event.outputTokens, cachedInputTokens: event.cachedInputTokens }
  } else if (event.type === 'finish') progress.stopReason = event.stopReason
}

/**
 * A provider's "context too long" before anything streamed is recovered from at most
 * `MAX_CONTEXT_RECOVERIES` times per request; `true` when the call should be made again.
 */
async function* recoverable(context: CallStepContext, sent: SentCall, progress: CallProgress, error: unknown): AsyncGenerator<SessionEvent, boolean> {
  const { recovery } = context
  if (!ContextTooLongError.isInstance(error) || progress.text !== '' || progress.toolCalls.length > 0 || recovery.count >= MAX_CONTEXT_RECOVERIES) return false
  recovery.count += 1
  recovery.error = error
  const recovered: SessionEvent[] = []
  const changed = await context.fitting.recover(error, context.state, sent, recovery.count, (event) => recovered.push(event))
  yield* recovered
  return changed
}

/** Writes the reply, reports calibration, and runs the tools it called; says whether the loop goes on. */
async function* finishCall(context: CallStepContext, sent: SentCall, callId: string, progress: CallProgress): AsyncGenerator<SessionEvent, CallStepEnd> {
  const { session, state } = context
  const aborted = progress.stopReason === 'abort' || state.controller.signal.aborted
  const calls = aborted ? [] : progress.toolCalls
  const timing = timingOf(progress, session.now())
  await appendReply(session, state, callId, { text: progress.text, calls }, { ...sent, usage: progress.usage, stopReason: progress.stopReason, interrupted: aborted, timing })
  if (progress.usage !== undefined && !aborted) {
    const calibration = await calibrationEvent(session.options.callLog, session.options.model.id, sent.counter, sent.projection, progress.usage)
    if (calibration !== undefined) yield calibration
  }
  if (aborted) {
    yield { type: 'error', requestId: state.requestId, error: state.controller.signal.reason ?? new DOMException('The request was aborted.', 'AbortError') }
    return 'end'
  }
  if (calls.length === 0) {
    yield { type: 'done', requestId: state.requestId, text: progress.text, stopReason: progress.stopReason }
    return 'end'
  }
  session.update({ status: 'awaiting-tools', runningTools: calls.map((call) => ({ toolCallId: call.toolCallId, name: call.name })) })
  const results: SessionEvent[] = []
  await context.toolRuns.run(calls, state, callId, (event) => results.push(event))
  yield* results
  if (state.controller.signal.aborted) {
    yield { type: 'error', requestId: state.requestId, error: state.controller.signal.reason }
    return 'end'
  }
  session.update({ runningTools: [] })
  return 'next'
}

function timingOf(progress: CallProgress, now: number): CallTiming {
  return { startedAt: progress.startedAt, firstTokenMs: progress.attempt.firstTokenMs, durationMs: now - progress.startedAt, attempts: progress.attempt.number }
}

function logProgress(context: CallStepContext, sent: SentCall, callId: string, progress: CallProgress, status: CallAttempt['status'], error: unknown): Promise<void> {
  const { attempt } = progress
  return logAttempt(context.session, {
    ...sent,
    state: context.state,
    callId,
    status,
    error,
    attempt: attempt.number,
    usage: progress.usage,
    startedAt: attempt.startedAt,
    firstTokenMs: attempt.firstTokenMs,
    durationMs: context.session.now() - attempt.startedAt,
  })
}
