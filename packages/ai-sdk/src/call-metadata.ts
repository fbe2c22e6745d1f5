import type { CallOutcome, CallStep, Usage } from '@threadlens/core/calls'
import { maxCallSteps } from '@threadlens/core/calls'
import { array, custom, flag, int, looseObject, number, optional, problemIssue, read, record, string, type Shape } from '@threadlens/core/internal'
import type { TextStreamPart, ToolSet, UIMessage } from 'ai'
import { reportedUsage } from './call-records'
import { InvalidCallMetadataError } from './errors'

// How a call that ran on a server comes back to the browser: the server route's
// `toUIMessageStreamResponse({ messageMetadata: projectedMessageMetadata(request) })` puts it on the
// reply's metadata (`metadata.threadlens.calls[callId]`, merged by the AI SDK with the app's own
// metadata and with earlier calls of the same message); the browser's save reads it back, checks
// it, and completes the record it wrote when it sent the request.

/** Format version of `metadata.threadlens`. */
const metadataVersion = 1

const count = int({ min: 0 })
const ms = number({ min: 0 })
const stopReason = string({ min: 1, max: 64 })

/** Tokens of a step or a call, as the server reports them. */
interface ReportedUsage {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
  cacheWriteInputTokens?: number
}

/** One step of a call, as the server reports it. */
export interface ReportedStep {
  stopReason: string
  usage?: ReportedUsage
  firstTokenMs?: number
  durationMs?: number
}

/** How one call ended, as the server reports it: its stop reason, tokens (all steps), timings and steps. */
export interface ReportedCall extends ReportedStep {
  /** The model that answered (the provider's response model id). */
  model?: string
  steps: ReportedStep[]
}

const usageReader = looseObject<ReportedUsage>({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: optional(count),
  cacheWriteInputTokens: optional(count),
})

const stepShape: Shape<ReportedStep> = { stopReason, usage: optional(usageReader), firstTokenMs: optional(ms), durationMs: optional(ms) }

const stepList = array(looseObject(stepShape), maxCallSteps)

const callReader = looseObject<ReportedCall>({
  ...stepShape,
  model: optional(string({ min: 1, max: 256 })),
  steps: (value, at) => {
    const steps = stepList(value, at)
    if (steps.length < 1) flag(at, 'Too small: expected array to have >=1 items')
    return steps
  },
})

const threadlensReader = looseObject<{ v: typeof metadataVersion; calls: Record<string, ReportedCall> }>({
  v: custom((value) => value === metadataVersion, `Invalid input: expected ${metadataVersion}`),
  calls: record(string({ min: 1, max: 256 }), callReader),
})

/** What `projectedMessageMetadata` adds to a reply's metadata. */
export interface ProjectedCallMetadata {
  readonly threadlens: { readonly v: 1; readonly calls: { readonly [callId: string]: ReportedCall } }
}

export interface ProjectedMessageMetadataOptions {
  /** The clock, in milliseconds. Default: `performance.now()`. */
  readonly now?: () => number
}

type StepClock = { readonly startedAt: number; firstAt?: number }

/** Parts that are not output: the step and stream bookkeeping. */
const bookkeeping = new Set(['start', 'start-step', 'finish-step', 'finish', 'abort', 'error', 'raw', 'ping'])

const round = (value: number): number => Math.max(0, Math.round(value))

function summed(steps: readonly ReportedStep[]): Usage | undefined {
  if (steps.length === 0 || steps.some((step) => step.usage === undefined)) return undefined
  const add = (pick: (usage: Usage) => number | undefined): number | undefined =>
    steps.some((step) => pick(step.usage as Usage) === undefined) ? undefined : steps.reduce((sum, step) => sum + (pick(step.usage as Usage) ?? 0), 0)
  const cachedInputTokens = add((usage) => usage.cachedInputTokens)
  const cacheWriteInputTokens = add((usage) => usage.cacheWriteInputTokens)
  return {
    inputTokens: add((usage) => usage.inputTokens) ?? 0,
    outputTokens: add((usage) => usage.outputTokens) ?? 0,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
  }
}

/**
 * For a server route: the `messageMetadata` of `toUIMessageStreamResponse` that reports how the
 * call ended to the browser, where its record is completed when the reply is saved (the Calls tab
 * then shows its tokens, cache reads and writes, stop reason and timings). A tool loop on the
 * server (`stopWhen`) is one call: each step is reported (stop reason, tokens, time to first
 * output and duration) and the call's tokens are the sum. Timings are measured here, from when
 * this is called: the model's time, not the network's. Use one per request.
 *
 * ```ts
 * return result.toUIMessageStreamResponse({
 *   generateMessageId: () => request.responseMessageId,
 *   messageMetadata: projectedMessageMetadata(request),
 * })
 * ```
 */
export function projectedMessageMetadata(
  request: { readonly callId: string },
  options: ProjectedMessageMetadataOptions = {},
): (options: { readonly part: TextStreamPart<ToolSet> }) => ProjectedCallMetadata | undefined {
  const now = options.now ?? (() => performance.now())
  const startedAt = now()
  let firstAt: number | undefined
  let step: StepClock | undefined
  let model: string | undefined
  const steps: ReportedStep[] = []
  const report = (reason: string, usage: Usage | undefined, at: number): ProjectedCallMetadata => {
    const call: ReportedCall = {
      stopReason: reason.slice(0, 64) || 'unknown',
      ...(usage === undefined ? {} : { usage }),
      ...(firstAt === undefined ? {} : { firstTokenMs: round(firstAt - startedAt) }),
      durationMs: round(at - startedAt),
      ...(model === undefined ? {} : { model }),
      steps: steps.length === 0 ? [{ stopReason: reason.slice(0, 64) || 'unknown' }] : steps.slice(0, maxCallSteps),
    }
    return { threadlens: { v: metadataVersion, calls: { [request.callId]: call } } }
  }
  return ({ part }) => {
    const at = now()
    switch (part.type) {
      case 'start-step':
        step = { startedAt: at }
        return undefined
      case 'finish-step': {
        const clock = step ?? { startedAt }
        const usage = reportedUsage(part.usage)
        steps.push({
          stopReason: part.finishReason.slice(0, 64) || 'unknown',
          ...(usage === undefined ? {} : { usage }),
          ...(clock.firstAt === undefined ? {} : { firstTokenMs: round(clock.firstAt - clock.startedAt) }),
          durationMs: round(at - clock.startedAt),
        })
        if (typeof part.response?.modelId === 'string' && part.response.modelId !== '') model = part.response.modelId.slice(0, 256)
        step = undefined
        return undefined
      }
      case 'finish':
        return report(part.finishReason, reportedUsage(part.totalUsage) ?? summed(steps), at)
      case 'abort':
        return report('abort', summed(steps), at)
      case 'error':
        return report('error', summed(steps), at)
      default:
        if (!bookkeeping.has(part.type)) {
          firstAt ??= at
          if (step !== undefined) step.firstAt ??= at
        }
        return undefined
    }
  }
}

/** What a message's metadata reports about the calls that wrote it, checked; `problem` when `metadata.threadlens` is there but unreadable. */
export interface ReportedCalls {
  /** By call id (`<messageId>:<step>`): only calls of this message. */
  readonly calls: ReadonlyMap<string, ReportedCall>
  readonly problem: InvalidCallMetadataError | undefined
}

const none: ReportedCalls = { calls: new Map(), problem: undefined }
const readCache = new WeakMap<object, ReportedCalls>()

/** The calls a message's metadata reports (see `projectedMessageMetadata`), checked: untrusted server output is never used unchecked. */
export function reportedCallsOf(message: UIMessage): ReportedCalls {
  const metadata = message.metadata
  if (metadata === null || typeof metadata !== 'object' || !Object.hasOwn(metadata, 'threadlens')) return none
  const cached = readCache.get(metadata)
  if (cached !== undefined) return cached
  const parsed = read(threadlensReader, (metadata as { threadlens: unknown }).threadlens)
  let result: ReportedCalls
  if (!parsed.ok) {
    const issue = problemIssue(parsed.problem)
    result = {
      calls: new Map(),
      problem: new InvalidCallMetadataError(String(message.id), [
        { path: issue.path === '' ? 'threadlens' : `threadlens.${issue.path}`, message: issue.message },
      ]),
    }
  } else {
    const calls = new Map<string, ReportedCall>()
    const prefix = `${message.id}:`
    for (const [callId, call] of Object.entries(parsed.value.calls)) {
      if (callId.startsWith(prefix) && /^\d{1,6}$/.test(callId.slice(prefix.length))) calls.set(callId, call)
    }
    result = { calls, problem: undefined }
  }
  readCache.set(metadata, result)
  return result
}

/** `report`, called at most once per message id. */
export function oncePerMessage(report: (problem: InvalidCallMetadataError) => void): (problem: InvalidCallMetadataError) => void {
  const seen = new Set<string>()
  return (problem) => {
    if (seen.has(problem.messageId)) return
    seen.add(problem.messageId)
    report(problem)
  }
}

/** Reports the messages whose call metadata is unreadable (it is ignored). */
export function noteInvalidMetadata(messages: readonly UIMessage[], report: (problem: InvalidCallMetadataError) => void): void {
  for (const message of messages) {
    const problem = message.role === 'assistant' ? reportedCallsOf(message).problem : undefined
    if (problem !== undefined) report(problem)
  }
}

/**
 * The call that wrote each step of a message: step `s` belongs to `<messageId>:<s>` unless a
 * reported call that started at an earlier step ran several (a tool loop on the server), which
 * owns its steps.
 */
export function stepOwners(messageId: string, reported: ReportedCalls): (step: number) => number {
  const owner = new Map<number, number>()
  const starts = [...reported.calls.entries()]
    .map(([callId, call]) => ({ start: Number(callId.slice(messageId.length + 1)), steps: call.steps.length }))
    .sort((a, b) => a.start - b.start)
  for (const { start, steps } of starts) {
    if (owner.has(start)) continue
    for (let step = start; step < start + steps; step += 1) if (!owner.has(step)) owner.set(step, start)
  }
  return (step) => owner.get(step) ?? step
}

/** A reported call as core's `CallOutcome` for `completeCallRecord`. */
export function outcomeOf(call: ReportedCall, options: { readonly withModel: boolean }): CallOutcome {
  const steps: CallStep[] = call.steps.map((step) => ({
    stopReason: step.stopReason,
    ...(step.usage === undefined ? {} : step.usage),
    ...(step.firstTokenMs === undefined ? {} : { firstTokenMs: step.firstTokenMs }),
    ...(step.durationMs === undefined ? {} : { durationMs: step.durationMs }),
  }))
  return {
    stopReason: call.stopReason,
    usage: call.usage,
    firstTokenMs: call.firstTokenMs,
    durationMs: call.durationMs,
    steps,
    ...(options.withModel && call.model !== undefined ? { model: call.model } : {}),
  }
}
