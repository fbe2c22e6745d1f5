import { type JsonObject, type ProjectionResult, type ToolSchema } from '@threadlens/core'
import { array, custom, heuristicCount, int, number, object, optional, string, TOOL_CALL_OVERHEAD_TOKENS, union } from '@threadlens/core/internal'
import { parseClientOptions } from './client-options'
import { DEFAULT_SCRIPTED_CHUNK_SIZE, DEFAULT_SCRIPTED_MODEL_ID } from './constants'

// The longest delay setTimeout accepts (a larger one fires at once).
const NEVER_MS = 2_147_483_647
import { ScriptExhaustedError } from './errors'
import type { Usage } from '@threadlens/core/calls'
import type { ModelClient, ModelRequest, ModelStreamEvent, StopReason } from './model-client'
import { networkError } from './provider-errors'
import { sleep } from './retry'
import { streamWithRetries } from './stream-with-retries'
import { toolCallEvent } from './tool-arguments'

export interface ScriptedToolCall {
  /** Default: `call_<projection.meta.entryCount>_<position>`, which is deterministic and grows with the thread. */
  readonly id?: string
  readonly name: string
  /** The arguments object, or raw text to script a model that sends broken JSON. */
  readonly arguments: JsonObject | string
}

/** One scripted reply. A plain string is shorthand for `{ text }`. */
export interface ScriptedReply {
  /** Streamed as `text-delta`s. Default: none. */
  readonly text?: string
  /** Streamed after the text, in order. Default: none. */
  readonly toolCalls?: readonly ScriptedToolCall[]
  /** Default: `tool-calls` when there are tool calls, else `stop`. */
  readonly stopReason?: Exclude<StopReason, 'abort'>
  /** Replaces the computed usage fields given (e.g. `{ cachedInputTokens: 900 }`). Default: computed. */
  readonly usage?: Partial<Usage>
  /**
   * Thrown instead of finishing: after the text and tool calls stream, or before anything when
   * the reply has neither (e.g. a `ContextTooLongError` to exercise compaction). Never retried.
   */
  readonly error?: Error
}

/** What a script function is told about the call it answers. */
export interface ScriptContext {
  readonly projection: ProjectionResult
  readonly tools: readonly ToolSchema[]
  /** 0 for the client's first call. */
  readonly callIndex: number
}

export type ScriptAnswer = string | ScriptedReply
export type ScriptStep = ScriptAnswer | ((context: ScriptContext) => ScriptAnswer)

export interface ScriptedModelOptions {
  /** One step per call, in order (a reply, or a function of the call's projection); or one function that answers every call. Required. */
  readonly script: readonly ScriptStep[] | ((context: ScriptContext) => ScriptAnswer)
  /** Characters per streamed chunk, of text and of tool arguments. Default: `4` (about a token). */
  readonly chunkSize?: number
  /** Pause before each chunk, in ms, for a demo that looks like a real model. Default: `0`. */
  readonly delayMs?: number
  /** The model id reported as `client.id`. Default: `scripted`. */
  readonly id?: string
}

const scriptFunction = custom<(context: ScriptContext) => ScriptAnswer>((value) => typeof value === 'function', 'must be a function')
// Steps are checked for their kind only: a reply's fields are the test author's, and typed.
const scriptStep = union<ScriptStep>([
  string(),
  custom<ScriptedReply>((value) => typeof value === 'object' && value !== null, 'must be a reply object'),
  scriptFunction,
])
const scriptSteps = array(scriptStep)
const scriptedModelOptionsReader = object<ScriptedModelOptions>({
  script: union<ScriptedModelOptions['script']>([(value, at) => Object.freeze(scriptSteps(value, at)), scriptFunction]),
  chunkSize: optional(int({ above: 0 })),
  delayMs: optional(number({ min: 0 })),
  id: optional(string({ min: 1 })),
})

/** A request a scripted model received. */
export interface ScriptedRequest {
  readonly projection: ProjectionResult
  readonly tools: readonly ToolSchema[]
  readonly maxOutputTokens: number | undefined
}

export interface ScriptedModel extends ModelClient {
  readonly provider: 'scripted'
  /** Every request so far, in call order: what the model was shown. */
  readonly requests: readonly ScriptedRequest[]
}

/**
 * A deterministic, offline `ModelClient` for demos and tests: it streams scripted replies in
 * chunks, like a real model, with usage computed from the projection (`meta.tokens.total` input
 * tokens) and the reply (heuristic token count). The same script and the same sequence of
 * projections give the same events. It never retries; abort works as with the real clients.
 */
export function scriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const parsed = parseClientOptions('scriptedModel', scriptedModelOptionsReader, options)
  const chunkSize = parsed.chunkSize ?? DEFAULT_SCRIPTED_CHUNK_SIZE
  const delayMs = parsed.delayMs ?? 0
  const requests: ScriptedRequest[] = []

  function answerFor(context: ScriptContext): ScriptedReply {
    const script = parsed.script
    let step: ScriptStep
    if (typeof script === 'function') step = script
    else {
      const scripted = script[context.callIndex]
      if (scripted === undefined) throw new ScriptExhaustedError(script.length)
      step = scripted
    }
    const answer = typeof step === 'function' ? step(context) : step
    return typeof answer === 'string' ? { text: answer } : answer
  }

  async function* attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const callIndex = requests.length
    requests.push({ projection: request.projection, tools: request.tools, maxOutputTokens: request.maxOutputTokens })
    const reply = answerFor({ projection: request.projection, tools: request.tools, callIndex })
    const toolCalls = reply.toolCalls ?? []
    if (reply.error !== undefined && (reply.text ?? '') === '' && toolCalls.length === 0) throw reply.error

    // Each chunk waits its turn and checks the signal: an abort stops the reply between chunks.
    const pace = async (): Promise<void> => {
      if (delayMs > 0 && !(await sleep(delayMs, signal))) throw new Error('aborted')
      if (signal?.aborted === true) throw new Error('aborted')
    }

    for (const piece of chunks(reply.text ?? '', chunkSize)) {
      await pace()
      yield { type: 'text-delta', text: piece }
    }
    let outputTokens = heuristicCount(reply.text ?? '')
    for (const [position, call] of toolCalls.entries()) {
      const toolCallId = call.id ?? `call_${request.projection.meta.entryCount}_${position}`
      const argumentsText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
      await pace()
      yield { type: 'tool-call-start', toolCallId, name: call.name }
      for (const piece of chunks(argumentsText, chunkSize)) {
        await pace()
        yield { type: 'tool-call-delta', toolCallId, argumentsDelta: piece }
      }
      yield toolCallEvent(toolCallId, call.name, argumentsText)
      outputTokens += TOOL_CALL_OVERHEAD_TOKENS + heuristicCount(call.name) + heuristicCount(argumentsText)
    }
    if (reply.error !== undefined) throw reply.error

    const usage: Usage = { inputTokens: request.projection.meta.tokens.total, outputTokens, ...reply.usage }
    yield { type: 'usage', ...usage }
    const stopReason = reply.stopReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop')
    yield { type: 'finish', stopReason, rawStopReason: stopReason }
  }

  return Object.freeze({
    id: parsed.id ?? DEFAULT_SCRIPTED_MODEL_ID,
    provider: 'scripted',
    requests,
    stream: (request: ModelRequest) =>
      streamWithRetries((signal) => attempt(request, signal), {
        signal: request.signal,
        // A script is never retried and never times out: its pacing is the test's to choose.
        retry: { maxRetries: 0, retryDelayMs: 0, maxRetryDelayMs: 0, maxRetryTotalMs: 0, firstEventTimeoutMs: NEVER_MS, idleTimeoutMs: NEVER_MS },
        onRetry: undefined,
        timeoutError: (problem) =>
          networkError({ provider: 'scripted', model: parsed.id ?? DEFAULT_SCRIPTED_MODEL_ID, origin: 'scripted', secrets: [] }, problem, undefined),
      }),
  })
}

// Whole code points, so a chunk never splits an emoji or other astral character.
function chunks(text: string, size: number): string[] {
  const characters = Array.from(text)
  const pieces: string[] = []
  for (let start = 0; start < characters.length; start += size) pieces.push(characters.slice(start, start + size).join(''))
  return pieces
}
