// Type-checked by the consumer test against the providers' own SDKs (skipLibCheck off): what the
// formats build is what `client.chat.completions.create` and `client.messages.create` take, with
// nothing cast.
import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'
import { toAnthropicMessages, toOpenAIChat, type ProjectionResult } from '@threadlens/core'

export function openAIRequest(result: ProjectionResult, model: string): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  return { model, messages: toOpenAIChat(result) }
}

export function anthropicRequest(result: ProjectionResult, model: string): Anthropic.MessageCreateParamsNonStreaming {
  const { system, messages } = toAnthropicMessages(result)
  return { model, max_tokens: 1024, messages, ...(system === undefined ? {} : { system }) }
}
