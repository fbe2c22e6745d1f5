import { toAnthropicMessages, type ToolSchema } from '@threadlens/core'
import { anthropicToolsCacheControl } from '@threadlens/core/caching'
import {
  type AnthropicCacheControl,
  type AnthropicMessage,
  type AnthropicTextBlock,
  int,
  object,
  optional,
  type Reader,
} from '@threadlens/core/internal'
import type { ProviderToolNames } from '@threadlens/core/parts'
import { fetchReader, headersReader, httpURL, nonEmpty, onRetryReader, parseClientOptions } from './client-options'
import { ANTHROPIC_VERSION, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS } from './constants'
import { httpModelClient } from './http-model-client'
import { type FetchFunction, parseEventObject } from './http-stream'
import type { Usage } from '@threadlens/core/calls'
import type { ModelClient, ModelRequest, ModelStreamEvent, StopReason } from './model-client'
import { type CallContext, errorFromStreamPayload, isRecord, streamCutOffError } from './provider-errors'
import { type RetryOptions, retryOptionsShape } from './retry'
import type { RetryNotice } from './stream-with-retries'
import { toolCallEvent } from './tool-arguments'
import { requestToolNames } from './request-tool-names'

export interface AnthropicOptions extends RetryOptions {
  /** Sent as `x-api-key`. Required. Held only in the client's closure. */
  readonly apiKey: string
  /** The model id, e.g. `claude-sonnet-4-5`. Required. */
  readonly model: string
  /** The API root, up to and including `/v1`; `/messages` is appended. Default: `https://api.anthropic.com/v1`. */
  readonly baseURL?: string
  /** Extra headers for every request (e.g. `anthropic-beta`); they win over the client's own. Default: none. */
  readonly headers?: Readonly<Record<string, string>>
  /** The `fetch` to call. Default: the global `fetch`, looked up at each call. */
  readonly fetch?: FetchFunction
  /** `max_tokens` (the Messages API requires one) unless the request sets `maxOutputTokens`. Default: `4096`. */
  readonly maxOutputTokens?: number
  /** Called before each retry. Default: none. */
  readonly onRetry?: (notice: RetryNotice) => void
}

export const anthropicOptionsReader: Reader<AnthropicOptions> = object<AnthropicOptions>({
  apiKey: nonEmpty('must be the Anthropic API key'),
  model: nonEmpty('must name the model'),
  baseURL: optional(httpURL),
  headers: optional(headersReader),
  fetch: optional(fetchReader),
  maxOutputTokens: optional(int({ above: 0 })),
  onRetry: optional(onRetryReader),
  ...retryOptionsShape,
})

/** The Messages API request body a call sends, keys in a fixed order (stable bytes keep prompt caches warm). */
export interface AnthropicRequestBody {
  model: string
  max_tokens: number
  system?: string | AnthropicTextBlock[]
  messages: AnthropicMessage[]
  tools?: { name: string; description?: string; input_schema: ToolSchema['parameters']; cache_control?: AnthropicCacheControl }[]
  /** The automatic prompt-caching mode (`policy.cache.anthropic: 'auto'`). */
  cache_control?: AnthropicCacheControl
  stream: true
}

export function anthropicRequestBody(
  request: Pick<ModelRequest, 'projection' | 'tools' | 'maxOutputTokens' | 'attachmentData'>,
  settings: { model: string; maxOutputTokens: number },
  toolNames: ProviderToolNames = requestToolNames(request),
): AnthropicRequestBody {
  // Cache breakpoints come from the projection (`cacheBreakpoints(result)`, which the formats call): see docs/caching.md.
  const {
    system,
    messages,
    cache_control: automatic,
  } = toAnthropicMessages(request.projection, {
    toolNames,
    ...(request.attachmentData === undefined ? {} : { attachmentData: request.attachmentData }),
  })
  const toolsMark = anthropicToolsCacheControl(request.projection)
  const lastTool = request.tools.length - 1
  return {
    model: settings.model,
    max_tokens: request.maxOutputTokens ?? settings.maxOutputTokens,
    ...(system === undefined ? {} : { system }),
    messages,
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool, position) => ({
            name: toolNames.toProvider(tool.name),
            ...(tool.description === undefined ? {} : { description: tool.description }),
            input_schema: tool.parameters,
            ...(position === lastTool && toolsMark !== undefined ? { cache_control: toolsMark } : {}),
          })),
        }),
    ...(automatic === undefined ? {} : { cache_control: automatic }),
    stream: true,
  }
}

/**
 * A `ModelClient` for Anthropic's Messages API with streaming, callable from a browser page
 * (it sends `anthropic-dangerous-direct-browser-access: true`: the key is then visible to the
 * page's user, so use it only with the user's own key). Uses `fetch` and parses the event
 * stream by hand: no SDK.
 */
export function anthropic(options: AnthropicOptions): ModelClient {
  const parsed = parseClientOptions('anthropic', anthropicOptionsReader, options)
  const bodySettings = { model: parsed.model, maxOutputTokens: parsed.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS }
  return httpModelClient({
    provider: 'anthropic',
    model: parsed.model,
    baseURL: parsed.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
    path: 'messages',
    apiKey: parsed.apiKey,
    providerHeaders: {
      'x-api-key': parsed.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      'anthropic-dangerous-direct-browser-access': 'true',
    },
    headers: parsed.headers,
    fetch: parsed.fetch,
    retry: parsed,
    onRetry: parsed.onRetry,
    requestBody: (request, toolNames) => anthropicRequestBody(request, bodySettings, toolNames),
    readStream: readAnthropicStream,
  })
}

type BlockDraft = { readonly kind: 'text' } | { readonly kind: 'tool'; readonly id: string; readonly name: string; json: string; done: boolean }

interface UsageDraft {
  input: number | undefined
  output: number | undefined
  cacheRead: number | undefined
  cacheWrite: number | undefined
}

// Repeated on purpose: same shape as packages/agent/src/model/openai-compatible.ts (each provider drafts and reads its own stream events).
/** What a Messages API stream has said so far. */
interface StreamDraft {
  readonly blocks: Map<number, BlockDraft>
  readonly usage: UsageDraft
  stopReason: string | undefined
  stopped: boolean
  calledTools: boolean
}

/**
 * Turns Messages API events into stream events: `text_delta` and `input_json_delta` stream as
 * they come, a `tool-call` is emitted at its block's `content_block_stop`, `usage` and `finish`
 * after `message_stop`. Thinking, citation and server-tool blocks are skipped; `ping` and unknown
 * events are ignored; an `error` event throws its typed error.
 */
export async function* readAnthropicStream(
  events: AsyncIterable<{ readonly data: string; readonly event: string }>,
  context: CallContext,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const draft: StreamDraft = {
    blocks: new Map(),
    usage: { input: undefined, output: undefined, cacheRead: undefined, cacheWrite: undefined },
    stopReason: undefined,
    stopped: false,
    calledTools: false,
  }
  for await (const event of events) {
    const payload = parseEventObject(event, context, 'an event')
    const type = typeof payload['type'] === 'string' ? payload['type'] : event.event
    if (type === 'error') throw errorFromStreamPayload(payload, context)
    yield* readEvent(type, payload, draft)
    if (draft.stopped) break
  }

  if (!draft.stopped && draft.stopReason === undefined) throw streamCutOffError(context)
  for (const block of draft.blocks.values()) {
    if (block.kind === 'tool' && !block.done) {
      block.done = true
      yield toolCallEvent(block.id, block.name, block.json)
    }
  }
  const reported = usageOf(draft.usage)
  if (reported !== undefined) yield { type: 'usage', ...reported }
  yield { type: 'finish', stopReason: stopReasonOf(draft.stopReason, draft.calledTools), rawStopReason: draft.stopReason }
}

function* readEvent(type: string, payload: { readonly [key: string]: unknown }, draft: StreamDraft): Generator<ModelStreamEvent, void, undefined> {
  const index = typeof payload['index'] === 'number' ? payload['index'] : -1
  switch (type) {
    case 'message_start':
      if (isRecord(payload['message'])) readUsage(payload['message']['usage'], draft.usage)
      return
    case 'content_block_start':
      yield* readBlockStart(payload['content_block'], index, draft)
      return
    case 'content_block_delta':
      yield* readBlockDelta(payload['delta'], draft.blocks.get(index))
      return
    case 'content_block_stop': {
      const block = draft.blocks.get(index)
      if (block?.kind === 'tool' && !block.done) {
        block.done = true
        yield toolCallEvent(block.id, block.name, block.json)
      }
      return
    }
    case 'message_delta': {
      const delta = payload['delta']
      if (isRecord(delta) && typeof delta['stop_reason'] === 'string') draft.stopReason = delta['stop_reason']
      readUsage(payload['usage'], draft.usage)
      return
    }
    case 'message_stop':
      draft.stopped = true
      return
    default:
      // `ping` keeps the connection alive; newer event types are ignored until clients learn them.
      return
  }
}

function* readBlockStart(block: unknown, index: number, draft: StreamDraft): Generator<ModelStreamEvent, void, undefined> {
  if (!isRecord(block)) return
  if (block['type'] === 'text') {
    draft.blocks.set(index, { kind: 'text' })
    if (typeof block['text'] === 'string' && block['text'] !== '') yield { type: 'text-delta', text: block['text'] }
  } else if (block['type'] === 'tool_use') {
    const id = typeof block['id'] === 'string' ? block['id'] : ''
    const name = typeof block['name'] === 'string' ? block['name'] : ''
    const input = block['input']
    // The start block carries `input: {}` and the JSON follows as deltas; a non-empty one is the whole input.
    const json = isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : ''
    draft.blocks.set(index, { kind: 'tool', id, name, json, done: false })
    draft.calledTools = true
    yield { type: 'tool-call-start', toolCallId: id, name }
  }
}

function* readBlockDelta(delta: unknown, block: BlockDraft | undefined): Generator<ModelStreamEvent, void, undefined> {
  if (!isRecord(delta) || block === undefined) return
  if (delta['type'] === 'text_delta' && typeof delta['text'] === 'string' && delta['text'] !== '') {
    yield { type: 'text-delta', text: delta['text'] }
  } else if (
    delta['type'] === 'input_json_delta' &&
    block.kind === 'tool' &&
    typeof delta['partial_json'] === 'string' &&
    delta['partial_json'] !== ''
  ) {
    block.json += delta['partial_json']
    yield { type: 'tool-call-delta', toolCallId: block.id, argumentsDelta: delta['partial_json'] }
  }
}

// `message_start` carries the prompt's counts; `message_delta` the running output count (and, lately, final prompt counts).
function readUsage(value: unknown, usage: UsageDraft): void {
  if (!isRecord(value)) return
  const read = (key: string): number | undefined => (typeof value[key] === 'number' ? value[key] : undefined)
  usage.input = read('input_tokens') ?? usage.input
  usage.output = read('output_tokens') ?? usage.output
  usage.cacheRead = read('cache_read_input_tokens') ?? usage.cacheRead
  usage.cacheWrite = read('cache_creation_input_tokens') ?? usage.cacheWrite
}

// Anthropic's `input_tokens` leaves out cached tokens; `inputTokens` counts the whole prompt, as OpenAI does.
function usageOf(usage: UsageDraft): Usage | undefined {
  if (usage.input === undefined && usage.output === undefined) return undefined
  return {
    inputTokens: (usage.input ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0),
    outputTokens: usage.output ?? 0,
    ...(usage.cacheRead === undefined ? {} : { cachedInputTokens: usage.cacheRead }),
    ...(usage.cacheWrite === undefined ? {} : { cacheWriteInputTokens: usage.cacheWrite }),
  }
}

function stopReasonOf(raw: string | undefined, calledTools: boolean): StopReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop'
    case 'tool_use':
      return 'tool-calls'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'refusal':
      return 'content-filter'
    default:
      return calledTools ? 'tool-calls' : 'stop'
  }
}
