import { toolArgumentsText } from '../entries/entry-text'
import type { ProjectedMessage, ProjectionResult } from '../project/types'

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

/**
 * A text content part. The projection sends plain strings, except where it marks an explicit cache
 * breakpoint: that message's content becomes one text part carrying `prompt_cache_breakpoint`.
 */
export interface OpenAIChatTextPart {
  type: 'text'
  text: string
  /** Caches the prompt up to and including this part (GPT-5.6 and later). */
  prompt_cache_breakpoint?: { mode: 'explicit' }
}

export interface OpenAIChatSystemMessage {
  role: 'system'
  content: string | OpenAIChatTextPart[]
}

export interface OpenAIChatUserMessage {
  role: 'user'
  content: string | OpenAIChatTextPart[]
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
  content: string | OpenAIChatTextPart[]
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

export interface ToOpenAIChatOptions {
  /**
   * Mark `meta.cache.openAIBreakpoints` with `prompt_cache_breakpoint` (content parts instead of
   * strings on those messages). Only GPT-5.6 and later accept the field (`openAITakesCacheBreakpoints`);
   * other models and most OpenAI-compatible servers reject or ignore it. Default false.
   */
  readonly cacheBreakpoints?: boolean
}

/**
 * The projection as a Chat Completions `messages` array, one message per projected message.
 * Fresh objects with a fixed key order, so the same projection gives byte-identical JSON
 * (which keeps the provider's prompt cache warm).
 */
export function toOpenAIChat(result: ProjectionResult, options: ToOpenAIChatOptions = {}): OpenAIChatMessage[] {
  const messages = result.messages.map(toOpenAIChatMessage)
  if (options.cacheBreakpoints !== true) return messages
  for (const breakpoint of result.meta.cache.openAIBreakpoints) {
    const message = messages[breakpoint.at as number]
    if (message === undefined || message.role === 'assistant' || typeof message.content !== 'string') continue
    message.content = [{ type: 'text', text: message.content, prompt_cache_breakpoint: { mode: 'explicit' } }]
  }
  return messages
}

/**
 * Whether an OpenAI model accepts explicit cache breakpoints: the GPT-5.6 family and later (an
 * `openai/` routing prefix, as OpenRouter spells it, is allowed). Earlier models cache on their own
 * and reject the field.
 */
export function openAITakesCacheBreakpoints(model: string): boolean {
  const match = /^(?:openai\/)?gpt-(\d+)(?:\.(\d+))?(?:[-.]|$)/i.exec(model.trim())
  if (match === null) return false
  const major = Number(match[1])
  const minor = match[2] === undefined ? 0 : Number(match[2])
  return major > 5 || (major === 5 && minor >= 6)
}

function toOpenAIChatMessage(message: ProjectedMessage): OpenAIChatMessage {
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
          function: { name: call.name, arguments: toolArgumentsText(call) },
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
