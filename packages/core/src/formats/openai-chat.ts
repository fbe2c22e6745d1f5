import { toolArgumentsText } from '../entries/entry-text'
import type { ProjectedMessage, ProjectionResult } from '../project/types'
import { providerToolNames, type ProviderToolNames } from './provider-tool-names'

/** One function call inside an assistant message, as the Chat Completions API exchanges it. */
export interface OpenAIChatToolCall {
  id: string
  type: 'function'
  function: {
    name: string
    /** The arguments object serialized as JSON text. */
    arguments: string
  }
}

export interface OpenAIChatSystemMessage {
  role: 'system'
  content: string
}

export interface OpenAIChatUserMessage {
  role: 'user'
  content: string
}

export interface OpenAIChatAssistantMessage {
  role: 'assistant'
  /** `null` only when the message carries tool calls and no text. */
  content: string | null
  /** Absent when the model called no tool: the API rejects an empty array. */
  tool_calls?: OpenAIChatToolCall[]
}

export interface OpenAIChatToolMessage {
  role: 'tool'
  tool_call_id: string
  content: string
}

/**
 * One element of the Chat Completions `messages` array. Written by hand so core needs no SDK;
 * the shapes are assignable to the OpenAI SDK's `ChatCompletionMessageParam`.
 */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage

/** Options of `toOpenAIChat` and `toAnthropicMessages`. */
export interface FormatOptions {
  /**
   * How tool names go on the wire; use the same mapping for the request's tool schemas and to read
   * the reply's tool calls back. Default: `providerToolNames(result)` (valid names unchanged).
   */
  readonly toolNames?: ProviderToolNames
}

/**
 * The projection as a Chat Completions `messages` array, one message per projected message.
 * Fresh objects with a fixed key order, so the same projection gives byte-identical JSON
 * (which keeps the provider's prompt cache warm). Tool names that break `toolNamePattern` (stored
 * before the rule) go out as `options.toolNames` maps them.
 */
export function toOpenAIChat(result: ProjectionResult, options: FormatOptions = {}): OpenAIChatMessage[] {
  const toolNames = options.toolNames ?? providerToolNames(result)
  return result.messages.map((message) => toOpenAIChatMessage(message, toolNames))
}

function toOpenAIChatMessage(message: ProjectedMessage, toolNames: ProviderToolNames): OpenAIChatMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content }
    case 'user':
      return { role: 'user', content: message.content }
    case 'assistant': {
      const toolCalls = message.toolCalls ?? []
      if (toolCalls.length === 0) return { role: 'assistant', content: message.content }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: toolNames.toProvider(call.name), arguments: toolArgumentsText(call) },
        })),
      }
    }
    case 'tool':
      // OpenAI has no error flag on tool messages; the projector already wrote errors into the text.
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
  }
}

/**
 * The Chat Completions request fields that steer prompt caching: `prompt_cache_key` (from
 * `meta.cache.key`, the thread id unless `policy.cache.openAIKey` says otherwise), so calls of one
 * thread reach the same cache. Spread them into the request body; empty when there is no key.
 */
export function openAIChatCacheFields(result: ProjectionResult): { prompt_cache_key?: string } {
  const key = result.meta.cache.key
  return key === undefined ? {} : { prompt_cache_key: key }
}
