import type { AnthropicCacheControl, AnthropicMessagesRequest } from '../formats/anthropic-messages'
import type { OpenAIChatMessage, OpenAIChatTextPart, OpenAIChatUserPart } from '../formats/openai-chat'
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter'
import { ANTHROPIC_IMAGE_MAX_TOKENS, openAIImageTokens } from '../parts/attachment-tokens'
import { hashString } from '../utils/hash'
import type { CacheBlock, CacheSimulationRequest } from './simulate-prompt-cache'

// Ids are a hash and the length of the bytes: long sessions replay thousands of requests, and holding
// every block's bytes as its id would cost gigabytes. A collision needs equal length and 53-bit hash.
function idOf(kind: string, bytes: string): string {
  return `${kind}:${hashString(bytes).toString(36)}:${bytes.length}`
}

/** Counts the tokens of a text (e.g. `counter.countCached` bound to a counter). */
export type CountText = (text: string) => number

/** A tool as a request body carries it (either provider's shape); only its bytes matter here. */
type RequestTool = { readonly cache_control?: AnthropicCacheControl } & Readonly<Record<string, unknown>>

function withoutCacheControl(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { cache_control: _ignored, ...rest } = value
  return rest
}

function ttlOf(mark: AnthropicCacheControl | undefined): '5m' | '1h' | undefined {
  return mark === undefined ? undefined : mark.ttl === '1h' ? '1h' : '5m'
}

/**
 * A Messages API request as the simulator's blocks, in the order Anthropic reads it: each tool,
 * each system block, each message content block. A block's id is its bytes without `cache_control`
 * (a marker moving does not change the prefix), plus its role and whether it opens a message.
 */
export function anthropicCacheBlocks(
  request: AnthropicMessagesRequest & { readonly tools?: readonly RequestTool[] },
  count: CountText,
): Pick<CacheSimulationRequest, 'blocks' | 'automatic'> {
  const blocks: CacheBlock[] = []
  const push = (id: string, tokens: number, mark: AnthropicCacheControl | undefined): void => {
    const breakpoint = ttlOf(mark)
    blocks.push(breakpoint === undefined ? { id, tokens } : { id, tokens, breakpoint })
  }
  for (const tool of request.tools ?? []) {
    const text = JSON.stringify(withoutCacheControl(tool))
    push(idOf('tool', text), count(text), tool.cache_control)
  }
  if (typeof request.system === 'string') push(idOf('system', request.system), count(request.system), undefined)
  else for (const block of request.system ?? []) push(idOf('system', block.text), count(block.text), block.cache_control)
  for (const message of request.messages) {
    message.content.forEach((block, position) => {
      const bytes = JSON.stringify(withoutCacheControl(block as unknown as Record<string, unknown>))
      const text =
        block.type === 'text'
          ? block.text
          : block.type === 'tool_use'
            ? `${block.name}${JSON.stringify(block.input)}`
            : block.type === 'tool_result'
              ? (block.content ?? '')
              : ''
      // Images count as the largest Anthropic bills; documents by their text, else as an image per block.
      const media =
        block.type === 'image'
          ? ANTHROPIC_IMAGE_MAX_TOKENS
          : block.type === 'document'
            ? block.source.type === 'text'
              ? count(block.source.data)
              : ANTHROPIC_IMAGE_MAX_TOKENS
            : 0
      const opens = position === 0
      push(idOf(`${message.role}${opens ? '+' : ''}`, bytes), count(text) + media + (opens ? MESSAGE_OVERHEAD_TOKENS : 0), block.cache_control)
    })
  }
  const automatic = ttlOf(request.cache_control)
  return automatic === undefined ? { blocks } : { blocks, automatic }
}

/**
 * A Chat Completions request as the simulator's blocks: the tools (one block: they are sent before
 * the messages), then one block per message. A message whose content carries a
 * `prompt_cache_breakpoint` gets a breakpoint (the simulator uses it for models that match at
 * breakpoints); its id is the message with the marker removed and single text parts flattened, so a
 * marker moving does not change the prefix. `prompt_cache_options.mode: 'explicit'` turns off the
 * implicit breakpoint on the latest message.
 */
export function openAICacheBlocks(
  request: {
    readonly messages: readonly OpenAIChatMessage[]
    readonly tools?: readonly RequestTool[]
    readonly prompt_cache_options?: { readonly mode?: 'implicit' | 'explicit' }
  },
  count: CountText,
): Pick<CacheSimulationRequest, 'blocks' | 'openAIMode'> {
  const blocks: CacheBlock[] = []
  if (request.tools !== undefined && request.tools.length > 0) {
    const text = JSON.stringify(request.tools)
    blocks.push({ id: idOf('tools', text), tokens: count(text) })
  }
  for (const message of request.messages) {
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : []
    const content = message.content
    const parts = typeof content === 'string' || content === null ? undefined : (content as readonly (OpenAIChatUserPart | OpenAIChatTextPart)[])
    let text = typeof content === 'string' ? content : ''
    // Images and files are not text: counted by size where known, else as the largest image (see attachment-tokens).
    let mediaTokens = 0
    for (const part of parts ?? []) {
      if (part.type === 'text') text += part.text
      else mediaTokens += openAIImageTokens(undefined, undefined, part.type === 'image_url' ? part.image_url.detail : undefined)
    }
    for (const call of calls) text += call.function.name + call.function.arguments
    // A marker moving does not change the prefix: the id leaves markers out, and one text part equals its string.
    const marked = parts !== undefined && parts.some((part) => part.prompt_cache_breakpoint !== undefined)
    const stripped = parts?.map(({ prompt_cache_breakpoint: _marker, ...part }) => part)
    const unmarked =
      stripped === undefined ? message : { ...message, content: stripped.length === 1 && stripped[0]?.type === 'text' ? stripped[0].text : stripped }
    const block: CacheBlock = { id: idOf('message', JSON.stringify(unmarked)), tokens: count(text) + mediaTokens + MESSAGE_OVERHEAD_TOKENS }
    blocks.push(marked ? { ...block, breakpoint: '30m' } : block)
  }
  return request.prompt_cache_options?.mode === 'explicit' ? { blocks, openAIMode: 'explicit' } : { blocks }
}
