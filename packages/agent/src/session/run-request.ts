// long: one request read top-down in one file (the loop, its bounds, the order of writes); the helpers it calls sit beside it
import {
  BudgetOverflowError,
  decideCompaction,
  type ContextPolicy,
  type Entry,
  type SessionSnapshot,
  type ThreadlensEvent,
  type TokenCounter,
  type ToolSchema,
} from '@threadlens/core'
import { callHashes, type CallAttempt, type CallTiming, type Usage } from '@threadlens/core/calls'
import { assertFits } from '@threadlens/core/compaction'
import type { EntryInputOf, MessagePayload } from '@threadlens/core/internal'
import { ContextTooLongError } from '../model/errors'
import type { ModelStreamEvent, StopReason, ToolCallEvent } from '../model/model-client'
import type { RetryNotice } from '../model/stream-with-retries'
import type { Tool } from '../tools/define-tool'
import { calibrationEvent, logAttempt, recordOfCall, replyEntries, type SentCall } from './call-records'
import type { ContextFitting, FittedContext } from './context-fitting'
import {
  callPolicy,
  MAX_CONTEXT_RECOVERIES,
  maxModelCalls,
  ModelCallBudget,
  policyWithin,
  serverLimitOf,
  unnamedServerLimit,
} from './context-recovery'
import { executeTool, NOT_RERUN, toolResultEntry, toolResultEvent } from './execute-tool'
import type { SessionEvent } from './session-events'
import type { SessionOptions } from './session-options'
import type { ThreadMirror } from './thread-mirror'
import { ToolCallIds } from './unique-tool-call-ids'
import { withNotices } from './with-notices'

/** The most calls a snapshot lists: older ones are on the thread's own records. */
const MAX_SNAPSHOT_CALLS = 50

/** One request (a send or a resume), built once its thread's lock is held and its policy is known. */
export interface RequestContext {
  readonly requestId: string
  /** Aborted by `session.abort()` or the request's own `signal`. */
  readonly signal: AbortSignal
  /** The request's policy; each call projects within a limit the server named too (`callPolicy`). */
  readonly policy: ContextPolicy
  readonly options: SessionOptions
  readonly mirror: ThreadMirror
  readonly fitting: ContextFitting
  readonly tools: ReadonlyMap<string, Tool<unknown>>
  readonly toolSchemas: readonly ToolSchema[]
  /** The tool calls this session has run, in any request: none runs twice. */
  readonly ranToolCalls: Set<string>
  /** The policy's counter; a send waits for a given counter's promise, so calls are counted exactly. */
  counter(): Promise<TokenCounter>
  snapshot(): SessionSnapshot
  update(changes: Partial<SessionSnapshot>): void
  createId(): string
  now(): number
}

/** How a request starts: a send writes the user's message; a resume answers the tool calls a reload left open. */
export type RequestStart = { readonly kind: 'send'; readonly message: MessagePayload } | { readonly kind: 'resume' }

/**
 * One request, once its lock is held (the session takes and frees the lock around it):
 * start → at most `maxIterations` times: fit the context → call the model → write the reply and its
 * record → run the tools. Bounded by construction: every model call takes one from a budget of
 * `maxModelCalls(maxIterations)`, each is at most `maxRetries + 1` HTTP requests (the client's retry
 * policy), and "context too long" is recovered from at most `MAX_CONTEXT_RECOVERIES` times; no path
 * re-enters the loop.
 */
export async function* runRequest(request: RequestContext, start: RequestStart): AsyncGenerator<SessionEvent> {
  const { requestId, signal } = request
  yield { type: 'request-start', requestId }
  if (start.kind === 'send') {
    await request.mirror.append([{ kind: 'message', payload: start.message, refs: { requestId } }])
    request.update({ pendingMessage: undefined })
  } else {
    const answered: SessionEvent[] = []
    if (!(await answerOpenToolCalls(request, (event) => answered.push(event)))) {
      yield { type: 'done', requestId, text: '', stopReason: 'stop' }
      return
    }
    yield* answered
  }
  const maxIterations = request.options.maxIterations ?? 8
  const budget = new ModelCallBudget(maxModelCalls(maxIterations))
  let recoveries = 0
  let tooLong: ContextTooLongError | undefined
  for (let iteration = 0; iteration < maxIterations;) {
    const call = yield* callModel(request, iteration, budget, tooLong)
    if (call.type === 'too-long') {
      if (recoveries >= MAX_CONTEXT_RECOVERIES) throw call.error
      recoveries += 1
      tooLong = call.error
      const recovered: SessionEvent[] = []
      const changed = await recoverFromTooLong(request, call.error, call.sent, recoveries, (event) => recovered.push(event))
      yield* recovered
      // A recovery that changes nothing would only fail the same way again.
      if (!changed) throw call.error
      continue // the same iteration again: the budget counts the extra call
    }
    if (call.type === 'aborted') {
      yield { type: 'error', requestId, error: signal.reason ?? new DOMException('The request was aborted.', 'AbortError') }
      return
    }
    if (call.toolCalls.length === 0) {
      yield { type: 'done', requestId, text: call.text, stopReason: call.stopReason }
      return
    }
    request.update({
      status: 'awaiting-tools',
      runningTools: call.toolCalls.map((toolCall) => ({ toolCallId: toolCall.toolCallId, name: toolCall.name })),
    })
    const results: SessionEvent[] = []
    await runTools(request, call.toolCalls, { requestId, callId: call.callId, iteration }, (event) => results.push(event))
    yield* results
    if (signal.aborted) {
      yield { type: 'error', requestId, error: signal.reason }
      return
    }
    request.update({ runningTools: [] })
    iteration += 1
  }
  yield { type: 'max-iterations', requestId, iterations: maxIterations }
}

/** How one model call ended: answered (and written), aborted (what came is written), or refused as too long before anything streamed. */
type CallOutcome =
  | {
      readonly type: 'answered'
      readonly callId: string
      readonly text: string
      readonly toolCalls: readonly ToolCallEvent[]
      readonly stopReason: StopReason
    }
  | { readonly type: 'aborted' }
  | { readonly type: 'too-long'; readonly error: ContextTooLongError; readonly sent: SentCall }

/** What a call streamed so far: kept outside the stream, so a failure still knows the partial reply. */
interface CallProgress {
  text: string
  readonly toolCalls: ToolCallEvent[]
  usage: Usage | undefined
  stopReason: StopReason
  /** The attempt in progress: its number (1 for the first), when it started and its first token. */
  attempt: { readonly number: number; readonly startedAt: number; firstTokenMs: number | undefined }
  readonly startedAt: number
}

/**
 * One model call: fit the context, stream the reply (the client retries failed attempts; each is
 * logged), then write the reply, its tool calls and the call record in one append. A failure writes
 * what streamed (as interrupted) and throws, except "context too long" before anything streamed.
 */
async function* callModel(
  request: RequestContext,
  iteration: number,
  budget: ModelCallBudget,
  tooLong: ContextTooLongError | undefined,
): AsyncGenerator<SessionEvent, CallOutcome> {
  const { requestId, options } = request
  const counter = await request.counter()
  const policy = callPolicy(request.policy, request.snapshot().serverLimit, options.model.id)
  const callId = request.createId()
  const fitEvents: ThreadlensEvent[] = []
  const fitted = await fitContext(request, policy, counter, tooLong, (event) => fitEvents.push(event))
  yield* fitEvents
  const { projection, memory, basisSeq } = fitted
  yield { type: 'projection-end', requestId, callId, iteration, projection }
  const tools = request.toolSchemas
  const listed = {
    callId,
    policy,
    counter: counter.id,
    model: options.model.id,
    tools,
    ...(memory === undefined ? {} : { memory }),
    basisSeq,
    startedAt: request.now(),
  }
  request.update({
    status: 'awaiting-model',
    lastProjection: projection,
    streamingText: '',
    memory,
    calls: [...request.snapshot().calls.slice(-(MAX_SNAPSHOT_CALLS - 1)), listed],
  })
  const sent: SentCall = { policy, counter, tools, memory, projection, basisSeq, hashes: callHashes({ policy, tools, memory, projection }) }

  budget.take()
  const startedAt = request.now()
  const progress: CallProgress = {
    text: '',
    toolCalls: [],
    usage: undefined,
    stopReason: 'stop',
    attempt: { number: 1, startedAt, firstTokenMs: undefined },
    startedAt,
  }
  const thread = await request.mirror.thread()
  const toolCallIds = new ToolCallIds((toolCallId) => thread.index.callSeqByToolCallId.has(toolCallId))
  const refs = { requestId, callId, iteration }
  try {
    yield* streamReply(request, sent, callId, progress, toolCallIds)
  } catch (error) {
    request.update({ status: 'awaiting-model', retry: undefined })
    await logProgress(request, sent, callId, progress, request.signal.aborted ? 'aborted' : 'failed', error)
    if (ContextTooLongError.isInstance(error) && progress.text === '' && progress.toolCalls.length === 0) return { type: 'too-long', error, sent }
    if (progress.text !== '') {
      const record = recordOfCall(options.model, request.mirror.stored, sent, {
        usage: progress.usage,
        stopReason: 'error',
        timing: timingOf(progress, request.now()),
      })
      await request.mirror.append(replyEntries({ text: progress.text, calls: [] }, record, refs, true))
    }
    throw error
  }

  const aborted = progress.stopReason === 'abort' || request.signal.aborted
  const toolCalls = aborted ? [] : progress.toolCalls
  const record = recordOfCall(options.model, request.mirror.stored, sent, {
    usage: progress.usage,
    stopReason: progress.stopReason,
    timing: timingOf(progress, request.now()),
  })
  await request.mirror.append(replyEntries({ text: progress.text, calls: toolCalls }, record, refs, aborted))
  if (aborted) return { type: 'aborted' }
  if (progress.usage !== undefined) {
    const calibration = await calibrationEvent(options.callLog, options.model.id, counter, projection, progress.usage)
    if (calibration !== undefined) yield calibration
  }
  return { type: 'answered', callId, text: progress.text, toolCalls, stopReason: progress.stopReason }
}

/** Projects the thread for a call; compacts once first when the policy calls for it; a typed error if it still cannot fit. */
async function fitContext(
  request: RequestContext,
  policy: ContextPolicy,
  counter: TokenCounter,
  tooLong: ContextTooLongError | undefined,
  onEvent: (event: ThreadlensEvent) => void,
): Promise<FittedContext> {
  const { fitting, toolSchemas: tools } = request
  try {
    const fresh = await fitting.freshMemory(policy, counter)
    let fitted = await fitting.project(policy, counter, tools, fresh)
    if (decideCompaction(fitted.projection, policy).action === 'compact') {
      // The projection just made is compaction's "before"; its counts are the meter's (tools and memory in).
      const before = { projection: fitted.projection, tools, ...(fitted.memory === undefined ? {} : { memory: fitted.memory }) }
      if (await fitting.compact(policy, counter, onEvent, before)) fitted = await fitting.project(policy, counter, tools, fresh)
    }
    assertFits(fitted.projection)
    return fitted
  } catch (error) {
    // What must be sent does not fit the window the server named: its own error says it best.
    throw tooLong !== undefined && BudgetOverflowError.isInstance(error) ? tooLong : error
  }
}

/** Streams the model's reply into `progress`, passing on its events and each retry wait as it starts. */
async function* streamReply(
  request: RequestContext,
  sent: SentCall,
  callId: string,
  progress: CallProgress,
  toolCallIds: ToolCallIds,
): AsyncGenerator<SessionEvent, void> {
  const { options, requestId } = request
  const attachmentData = options.attachments === undefined ? undefined : await options.attachments.dataFor(sent.projection)
  const stream = withNotices<ModelStreamEvent, RetryNotice>((onRetry) =>
    options.model.stream({
      projection: sent.projection,
      tools: sent.tools,
      ...(attachmentData === undefined ? {} : { attachmentData }),
      signal: request.signal,
      onRetry,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    }),
  )
  for await (const item of stream) {
    if (item.kind === 'notice') {
      const { error, attempt, maxAttempts, delayMs, retryAt } = item.value
      await logProgress(request, sent, callId, progress, 'retried', error)
      progress.attempt = { number: attempt, startedAt: retryAt, firstTokenMs: undefined }
      const retry = { error, attempt, maxAttempts, delayMs, retryAt }
      request.update({ status: 'retrying', retry })
      yield { type: 'retry-wait', requestId, callId, ...retry }
      continue
    }
    progress.attempt.firstTokenMs ??= Math.max(0, request.now() - progress.attempt.startedAt)
    if (request.snapshot().status === 'retrying') request.update({ status: 'awaiting-model', retry: undefined })
    const event = item.value
    if (event.type === 'text-delta') {
      progress.text += event.text
      request.update({ streamingText: progress.text })
      yield { type: 'text-delta', callId, text: event.text }
    } else if (event.type === 'tool-call-start')
      yield { type: 'tool-call-start', callId, toolCallId: toolCallIds.start(event.toolCallId), name: event.name }
    else if (event.type === 'tool-call') {
      const call = { ...event, toolCallId: toolCallIds.complete(event.toolCallId) }
      progress.toolCalls.push(call)
      yield { type: 'tool-call', callId, toolCallId: call.toolCallId, name: call.name, arguments: call.arguments }
    } else if (event.type === 'usage') {
      progress.usage = event
      yield { type: 'usage', callId, inputTokens: event.inputTokens, outputTokens: event.outputTokens, cachedInputTokens: event.cachedInputTokens }
    } else if (event.type === 'finish') progress.stopReason = event.stopReason
  }
}

/**
 * One recovery from "context too long": the first compacts (and adopts a limit the error named, or
 * a smaller window when it named none), later ones only adopt a newly named, smaller limit. `false`
 * when nothing changed.
 */
async function recoverFromTooLong(
  request: RequestContext,
  error: ContextTooLongError,
  sent: SentCall,
  recovery: number,
  onEvent: (event: SessionEvent) => void,
): Promise<boolean> {
  let changed = false
  const model = request.options.model.id
  const refused = sent.projection.meta.tokens.total
  const limit =
    serverLimitOf(error, model, sent.policy, refused) ??
    (recovery === 1 && error.limitTokens === undefined ? unnamedServerLimit(model, sent.policy, refused) : undefined)
  if (limit !== undefined) {
    request.update({ serverLimit: limit })
    onEvent({ type: 'server-limit-learn', requestId: request.requestId, ...limit })
    changed = true
  }
  if (recovery === 1 && (await request.fitting.compact(policyWithin(request.policy, request.snapshot().serverLimit), sent.counter, onEvent)))
    changed = true
  return changed
}

/** Runs a reply's tool calls in parallel and writes each result as soon as it is ready; never one call twice. */
async function runTools(
  request: RequestContext,
  calls: readonly ToolCallEvent[],
  refs: { readonly requestId: string; readonly callId: string; readonly iteration: number },
  onEvent: (event: SessionEvent) => void,
): Promise<void> {
  const thread = await request.mirror.thread()
  await Promise.all(
    calls.map(async (call) => {
      // Not if this session ran it, not if any tab recorded its result.
      if (request.ranToolCalls.has(call.toolCallId) || thread.index.resultSeqByToolCallId.has(call.toolCallId)) return
      request.ranToolCalls.add(call.toolCallId)
      const context = {
        signal: request.signal,
        threadId: request.options.threadId,
        thread: await request.mirror.thread(),
        counter: await request.counter(),
      }
      const entry = toolResultEntry(call, await executeTool(request.tools, call, context), request.policy, refs, onEvent)
      await request.mirror.append([entry])
      onEvent(toolResultEvent(call, entry))
    }),
  )
}

/**
 * After a reload: answers the tool calls left without a result — idempotent tools run again, others
 * are recorded as interrupted. `false` when there were none.
 */
async function answerOpenToolCalls(request: RequestContext, onEvent: (event: SessionEvent) => void): Promise<boolean> {
  const thread = await request.mirror.thread()
  const calls = [...thread.index.unresolvedToolCallIds]
    .map((toolCallId) => thread.bySeq(thread.index.callSeqByToolCallId.get(toolCallId) as number))
    .filter((entry): entry is Extract<Entry, { kind: 'tool_call' }> => entry?.kind === 'tool_call')
  for (const call of calls) {
    const refs = { ...call.refs, toolCallId: call.refs.toolCallId as string }
    const toolCall: ToolCallEvent = {
      type: 'tool-call',
      toolCallId: refs.toolCallId,
      name: call.payload.name,
      arguments: call.payload.arguments,
      argumentsText: '',
    }
    if (request.tools.get(toolCall.name)?.idempotent === true) {
      await runTools(request, [toolCall], { requestId: request.requestId, callId: refs.callId ?? '', iteration: 0 }, onEvent)
    } else {
      const entry: EntryInputOf<'tool_result'> = {
        kind: 'tool_result',
        payload: { name: toolCall.name, error: NOT_RERUN },
        refs,
        meta: { interrupted: true },
      }
      await request.mirror.append([entry])
      onEvent(toolResultEvent(toolCall, entry))
    }
  }
  return calls.length > 0
}

function timingOf(progress: CallProgress, now: number): CallTiming {
  return {
    startedAt: progress.startedAt,
    firstTokenMs: progress.attempt.firstTokenMs,
    durationMs: now - progress.startedAt,
    attempts: progress.attempt.number,
  }
}

/** Logs the attempt in progress, which ended without a reply on the thread (failed, retried, aborted). */
async function logProgress(
  request: RequestContext,
  sent: SentCall,
  callId: string,
  progress: CallProgress,
  status: CallAttempt['status'],
  error: unknown,
): Promise<void> {
  const log = request.options.callLog
  if (log === undefined) return
  const { attempt } = progress
  const timing = {
    startedAt: attempt.startedAt,
    firstTokenMs: attempt.firstTokenMs,
    durationMs: Math.max(0, request.now() - attempt.startedAt),
    attempts: attempt.number,
  }
  const record = recordOfCall(request.options.model, request.mirror.stored, sent, {
    usage: progress.usage,
    stopReason: status === 'aborted' ? 'abort' : 'error',
    timing,
  })
  await logAttempt(log, { threadId: request.options.threadId, callId, requestId: request.requestId, attempt: attempt.number, status, record, error })
}
