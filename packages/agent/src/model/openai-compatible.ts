import { type OpenAIChatMessage, toOpenAIChat, type ToolSchema } from '@threadlens/core'
import { openAIChatCacheFields, openAITakesCacheBreakpoints } from '@threadlens/core/caching'
import type { ProviderToolNames } from '@threadlens/core/parts'
import { boolean, int, object, oneOf, optional, string, union, type Reader } from '@threadlens/core/internal'
import { fetchReader, headersReader, httpURL, nonEmpty, onRetryReader, parseClientOptions } from './client-options'
import { httpModelClient } from './http-model-client'
import { type FetchFunction, parseEventObject } from './http-stream'
import type { Usage } from '@threadlens/core/calls'
import type { ModelClient, ModelRequest, ModelStreamEvent, StopReason } from './model-client'
import { type CallContext, errorFromStreamPayload, isRecord, streamCutOffError } from './provider-errors'
import { type RetryOptions, retryOptionsShape } from './retry'
import type { RetryNotice } from './stream-with-retries'
import { toolCallEvent } from './tool-arguments'
import { requestToolNames } from './request-tool-names'

export interface OpenAICompatibleOptions extends RetryOptions {
  /**
   * The API root, up to and including the version segment; `/chat/completions` is appended.
   * `https://api.openai.com/v1`, `https://openrouter.ai/api/v1`, and local servers:
   * `http://localhost:11434/v1` (Ollama), `http://localhost:1234/v1` (LM Studio),
   * `http://localhost:8000/v1` (vLLM), `http://localhost:8080/v1` (llama.cpp). Required.
   */
  readonly baseURL: string
  /** Sent as `Authorization: Bearer <apiKey>`. Default: none (local servers need none). Held only in the client's closure. */
  readonly apiKey?: string | undefined
  /** The model id the server knows, e.g. `gpt-4o-mini`, `llama3.2`. Required. */
  readonly model: string
  /** Extra headers for every request (e.g. OpenRouter's `HTTP-Referer`, `X-Title`); they win over the client's own. Default: none. */
  readonly headers?: Readonly<Record<string, string>>
  /** The `fetch` to call. Default: the global `fetch`, looked up at each call. */
  readonly fetch?: FetchFunction
  /** Caps each reply unless the request sets `maxOutputTokens`. Default: none (the server's default). */
  readonly maxOutputTokens?: number
  /**
   * Which body field carries the cap. Default: `max_tokens`, which every compatible server reads;
   * OpenAI's reasoning models (o-series, GPT-5) accept only `max_completion_tokens`.
   */
  readonly maxOutputTokensField?: 'max_tokens' | 'max_completion_tokens'
  /** Sends `stream_options: { include_usage: true }` so the server reports usage; turn off for a server that rejects it. Default: `true`. */
  readonly includeUsage?: boolean
  /**
   * Marks the projection's OpenAI breakpoints (`cacheBreakpoints(result).openAI`) with `prompt_cache_breakpoint` so the
   * provider caches those prefixes (GPT-5.6 and later match cache entries only at breakpoints).
   * `auto`: when `openAITakesCacheBreakpoints(model)` says the model accepts them. Turn off for a
   * server that rejects content parts or unknown fields. Default `auto`.
   */
  readonly cacheBreakpoints?: 'auto' | boolean
  /** Called before each retry. Default: none. */
  readonly onRetry?: (notice: RetryNotice) => void
}

export const openAICompatibleOptionsReader: Reader<OpenAICompatibleOptions> = object<OpenAICompatibleOptions>({
  baseURL: httpURL,
  apiKey: optional(string(), 'loose'),
  model: nonEmpty('must name the model'),
  headers: optional(headersReader),
  fetch: optional(fetchReader),
  maxOutputTokens: optional(int({ above: 0 })),
  maxOutputTokensField: optional(oneOf(['max_tokens', 'max_completion_tokens'])),
  includeUsage: optional(boolean),
  cacheBreakpoints: optional(union<'auto' | boolean>([oneOf(['auto']), boolean])),
  onRetry: optional(onRetryReader),
  ...retryOptionsShape,
})

/** The Chat Completions request body a call sends, keys in a fixed order (stable bytes keep prompt caches warm). */
export interface OpenAIChatRequestBody {
  model: string
  messages: OpenAIChatMessage[]
  tools?: { type: 'function'; function: { name: string; description?: string; parameters: ToolSchema['parameters'] } }[]
  max_tokens?: number
  max_completion_tokens?: number
  stream: true
  stream_options?: { include_usage: true }
  /** Routes calls of one thread to the same prompt cache (`meta.cache.key`: the thread id by default). */
  prompt_cache_key?: string
}

export function openAIChatRequestBody(
  request: Pick<ModelRequest, 'projection' | 'tools' | 'maxOutputTokens' | 'attachmentData'>,
  settings: {
    model: string
    maxOutputTokens: number | undefined
    maxOutputTokensField: 'max_tokens' | 'max_completion_tokens'
    includeUsage: boolean
    /** Send `prompt_cache_breakpoint` markers. Default false. */
    cacheBreakpoints?: boolean
  },
  toolNames: ProviderToolNames = requestToolNames(request),
): OpenAIChatRequestBody {
  const maxOutputTokens = request.maxOutputTokens ?? settings.maxOutputTokens
  return {
    model: settings.model,
    messages: toOpenAIChat(request.projection, {
      toolNames,
      cacheBreakpoints: settings.cacheBreakpoints === true,
      ...(request.attachmentData === undefined ? {} : { attachmentData: request.attachmentData }),
    }),
    // OpenAI rejects an empty `tools` array, so none is sent when there are no tools.
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: toolNames.toProvider(tool.name),
              ...(tool.description === undefined ? {} : { description: tool.description }),
              parameters: tool.parameters,
            },
          })),
        }),
    ...(maxOutputTokens === undefined ? {} : { [settings.maxOutputTokensField]: maxOutputTokens }),
    stream: true,
    ...(settings.includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...openAIChatCacheFields(request.projection),
  }
}

/**
 * A `ModelClient` for the Chat Completions API with streaming: OpenAI and the servers that speak
 * it (Ollama, LM Studio, vLLM, OpenRouter, llama.cpp); only `baseURL` and `headers` differ.
 * Uses `fetch` and parses the event stream by hand: no SDK.
 */
export function openAICompatible(options: OpenAICompatibleOptions): ModelClient {
  const parsed = parseClientOptions('openAICompatible', openAICompatibleOptionsReader, options)
  const apiKey = parsed.apiKey
  const bodySettings = {
    model: parsed.model,
    maxOutputTokens: parsed.maxOutputTokens,
    maxOutputTokensField: parsed.maxOutputTokensField ?? 'max_tokens',
    includeUsage: parsed.includeUsage ?? true,
    cacheBreakpoints:
      parsed.cacheBreakpoints === undefined || parsed.cacheBreakpoints === 'auto'
        ? openAITakesCacheBreakpoints(parsed.model)
        : parsed.cacheBreakpoints,
  }
  return httpModelClient({
    provider: 'openai-compatible',
    model: parsed.model,
    baseURL: parsed.baseURL,
    path: 'chat/completions',
    apiKey,
    providerHeaders: apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` },
    headers: parsed.headers,
    fetch: parsed.fetch,
    retry: parsed,
    onRetry: parsed.onRetry,
    requestBody: (request, toolNames) => openAIChatRequestBody(request, bodySettings, toolNames),
    readStream: readChatCompletionStream,
  })
}

// Repeated on purpose: same shape as packages/agent/src/model/anthropic.ts (each provider drafts and reads its own stream events).
interface ToolCallDraft {
  readonly id: string
  name: string
  argumentsText: string
  started: boolean
}

/**
 * Turns Chat Completions chunks into stream events. Tool call fragments are assembled by their
 * `index`; servers that omit `index` but send a new `id` start a new call. A `tool-call` is
 * emitted for each call once the stream ends, then `usage` (the chunk after `finish_reason`),
 * then `finish`. Servers that finish with `stop` after calling tools (older Ollama) report `tool-calls`.
 */
export async function* readChatCompletionStream(
  events: AsyncIterable<{ readonly data: string; readonly event: string }>,
  context: CallContext,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const calls = new Map<number, ToolCallDraft>()
  let finishReason: string | undefined
  let usage: Usage | undefined
  let sawDone = false

  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      sawDone = true
      break
    }
    const chunk = parseEventObject(event, context, 'a chunk')
    if (chunk['error'] !== undefined && chunk['error'] !== null) throw errorFromStreamPayload(chunk, context)
    usage = usageOf(chunk['usage']) ?? usage
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : []
    for (const choice of choices) {
      // Only the first choice: clients never ask for `n` > 1.
      if (!isRecord(choice) || (typeof choice['index'] === 'number' && choice['index'] !== 0)) continue
      const delta = choice['delta']
      if (isRecord(delta)) {
        for (const key of ['content', 'refusal']) {
          const text = delta[key]
          if (typeof text === 'string' && text !== '') yield { type: 'text-delta', text }
        }
        if (Array.isArray(delta['tool_calls'])) yield* readToolCallDeltas(delta['tool_calls'], calls)
      }
      if (typeof choice['finish_reason'] === 'string' && choice['finish_reason'] !== '') finishReason = choice['finish_reason']
    }
  }

  if (!sawDone && finishReason === undefined) throw streamCutOffError(context)
  for (const index of [...calls.keys()].sort((a, b) => a - b)) {
    const call = calls.get(index) as ToolCallDraft
    if (!call.started) yield { type: 'tool-call-start', toolCallId: call.id, name: call.name }
    yield toolCallEvent(call.id, call.name, call.argumentsText)
  }
  if (usage !== undefined) yield { type: 'usage', ...usage }
  yield { type: 'finish', stopReason: stopReasonOf(finishReason, calls.size > 0), rawStopReason: finishReason }
}

function* readToolCallDeltas(deltas: readonly unknown[], calls: Map<number, ToolCallDraft>): Generator<ModelStreamEvent, void, undefined> {
  for (const [position, delta] of deltas.entries()) {
    if (!isRecord(delta)) continue
    const toolFunction = isRecord(delta['function']) ? delta['function'] : {}
    const id = typeof delta['id'] === 'string' && delta['id'] !== '' ? delta['id'] : undefined
    let index = typeof delta['index'] === 'number' ? delta['index'] : position
    const existing = calls.get(index)
    if (typeof delta['index'] !== 'number' && existing !== undefined && id !== undefined && id !== existing.id) index = Math.max(...calls.keys()) + 1

    let call = calls.get(index)
    if (call === undefined) {
      call = { id: id ?? generatedToolCallId(), name: '', argumentsText: '', started: false }
      calls.set(index, call)
    }
    if (call.name === '' && typeof toolFunction['name'] === 'string') call.name = toolFunction['name']
    const argumentsDelta = typeof toolFunction['arguments'] === 'string' ? toolFunction['arguments'] : ''
    call.argumentsText += argumentsDelta
    if (!call.started && call.name !== '') {
      call.started = true
      yield { type: 'tool-call-start', toolCallId: call.id, name: call.name }
      // Fragments that came before the name are sent as one delta now.
      if (call.argumentsText !== '') yield { type: 'tool-call-delta', toolCallId: call.id, argumentsDelta: call.argumentsText }
    } else if (call.started && argumentsDelta !== '') {
      yield { type: 'tool-call-delta', toolCallId: call.id, argumentsDelta }
    }
  }
}

function stopReasonOf(raw: string | undefined, calledTools: boolean): StopReason {
  switch (raw) {
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls'
    case 'length':
      return 'length'
    case 'content_filter':
      return 'content-filter'
    case 'error':
      return 'error'
    default:
      return calledTools ? 'tool-calls' : 'stop'
  }
}

function usageOf(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined
  const input = value['prompt_tokens']
  const output = value['completion_tokens']
  if (typeof input !== 'number' || typeof output !== 'number') return undefined
  const details = value['prompt_tokens_details']
  const cached = isRecord(details) ? details['cached_tokens'] : undefined
  // GPT-5.6 and later bill cache writes and report them beside the reads.
  const written = isRecord(details) ? details['cache_write_tokens'] : undefined
  return {
    inputTokens: input,
    outputTokens: output,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    ...(typeof written === 'number' ? { cacheWriteInputTokens: written } : {}),
  }
}

// Some servers stream tool calls without ids; the thread needs one to pair the call with its result.
function generatedToolCallId(): string {
  const random = typeof globalThis.crypto?.randomUUID === 'function' ? globalThis.crypto.randomUUID() : `${Math.random()}`.slice(2)
  return `call_${random.replace(/-/g, '')}`
}
