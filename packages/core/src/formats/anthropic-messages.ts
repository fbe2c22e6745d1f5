import type { JsonObject } from '../entries/entry'
import type { ProjectedMessage, ProjectionResult } from '../project/types'
import { cacheBreakpoints } from '../caching/cache-breakpoints'
import { attachmentBase64, type FormatOptions } from './openai-chat'
import { type ContentPart, mediaTypeOf, parseDataUrl } from '../entries/content-parts'
import { providerToolNames, type ProviderToolNames } from '../parts/provider-tool-names'
import { anthropicToolId } from './anthropic-tool-id'
import { base64Utf8 } from '../utils/base64-utf8'

export { anthropicToolId, anthropicToolIdPattern } from './anthropic-tool-id'

/** A prompt-cache breakpoint: the prefix up to and including this block is cached. No `ttl` means 5 minutes. */
export interface AnthropicCacheControl {
  type: 'ephemeral'
  ttl?: '1h'
}

export interface AnthropicTextBlock {
  type: 'text'
  text: string
  cache_control?: AnthropicCacheControl
}

export interface AnthropicToolUseBlock {
  type: 'tool_use'
  /** Always matches `anthropicToolIdPattern`; see `anthropicToolId`. */
  id: string
  name: string
  /** The arguments object, shared with the projection: treat it as read-only. */
  input: JsonObject
  cache_control?: AnthropicCacheControl
}

export interface AnthropicToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  /** Absent when the tool returned empty text: the API rejects empty text. */
  content?: string
  /** Present (and `true`) only for failed calls. */
  is_error?: true
  cache_control?: AnthropicCacheControl
}

/** The image types the Messages API takes. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'
export const anthropicImageMediaTypes: readonly AnthropicImageMediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

export interface AnthropicImageBlock {
  type: 'image'
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string }
  cache_control?: AnthropicCacheControl
}

export interface AnthropicDocumentBlock {
  type: 'document'
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'url'; url: string }
  /** The file's name, when known. */
  title?: string
  cache_control?: AnthropicCacheControl
}

export type AnthropicContentBlock =
  AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock | AnthropicImageBlock | AnthropicDocumentBlock

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicContentBlock[]
}

/**
 * The `system`, `messages` and `cache_control` fields of a Messages API request; add `model`,
 * `max_tokens`, `tools` yourself (and `anthropicToolsCacheControl` on the last tool).
 */
export interface AnthropicMessagesRequest {
  /**
   * The leading system messages joined by a blank line; absent when there are none. One text block
   * per system message instead when a cache breakpoint sits among them.
   */
  system?: string | AnthropicTextBlock[]
  messages: AnthropicMessage[]
  /** The automatic caching mode (`policy.cache.anthropic: 'auto'`): the API caches up to the last cacheable block. */
  cache_control?: AnthropicCacheControl
}

/**
 * Stands in for the user turn the Messages API requires first, when the projection's history
 * starts with an assistant message (e.g. a window or budget cut off the user's question).
 */
export const anthropicOmittedHistoryText = '[earlier conversation omitted]'

/** Prefixes a system message that appears after history has begun; the API has no mid-conversation system role. */
export const anthropicSystemNotePrefix = 'System note: '

// The API rejects a tool_result with is_error and no content.
const emptyErrorText = 'Error'

function hasText(text: string): boolean {
  // The API rejects whitespace-only text blocks as well as empty ones.
  return text.trim() !== ''
}

/**
 * The projection as a Messages API request. Leading system messages (system prompt, memory,
 * summary) become `system`. The rest is reshaped to the API's rules: roles alternate starting
 * with `user` (same-role neighbours merge into one message; a history that would start with the
 * assistant gets a user turn reading `anthropicOmittedHistoryText` first), tool results go as
 * `tool_result` blocks at the front of the user message after the `tool_use`, empty text is
 * dropped, tool ids are mapped by `anthropicToolId`, a later system message becomes a user text
 * block prefixed by `anthropicSystemNotePrefix`, and a final assistant message loses trailing
 * whitespace; tool names that break `toolNamePattern` (stored before the rule) go out as
 * `options.toolNames` maps them. Deterministic: the same projection gives byte-identical JSON.
 */
export function toAnthropicMessages(result: ProjectionResult, options: FormatOptions = {}): AnthropicMessagesRequest {
  const toolNames = options.toolNames ?? providerToolNames(result)
  const cache = result.meta.cache
  const marks = new Map<number, AnthropicCacheControl>()
  for (const breakpoint of cacheBreakpoints(result).anthropic) if (breakpoint.at !== 'tools') marks.set(breakpoint.at, cacheControl(breakpoint.ttl))

  const systemBlocks: AnthropicTextBlock[] = []
  let systemMarked = false
  let historyStart = 0
  for (const message of result.messages) {
    if (message.role !== 'system') break
    if (hasText(message.content)) {
      const block: AnthropicTextBlock = { type: 'text', text: message.content }
      const mark = marks.get(historyStart)
      if (mark !== undefined) {
        block.cache_control = mark
        systemMarked = true
      }
      systemBlocks.push(block)
    }
    historyStart += 1
  }

  const messages: AnthropicMessage[] = []
  result.messages.forEach((message, position) => {
    if (position < historyStart) return
    const last = appendProjected(messages, message, toolNames, options)
    const mark = marks.get(position)
    // Placement puts breakpoints only on messages that make a block; the check keeps the request valid regardless.
    if (mark !== undefined && last !== undefined) last.cache_control = mark
  })

  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: anthropicOmittedHistoryText }] })
  }
  trimFinalAssistantText(messages)

  const request: AnthropicMessagesRequest = { messages }
  if (systemBlocks.length > 0) request.system = systemMarked ? systemBlocks : systemBlocks.map((block) => block.text).join('\n\n')
  if (cache.anthropic === 'auto') request.cache_control = cacheControl(cache.ttl)
  // Key order as before caching existed (system first): the same projection gives the same bytes.
  return request.system === undefined ? request : { system: request.system, ...request }
}

/**
 * The `cache_control` to put on the last tool schema, when the projection's tools-and-system
 * breakpoint has no system prompt to sit on; `undefined` otherwise.
 */
export function anthropicToolsCacheControl(result: ProjectionResult): AnthropicCacheControl | undefined {
  const breakpoint = cacheBreakpoints(result).anthropic.find((candidate) => candidate.at === 'tools')
  return breakpoint === undefined ? undefined : cacheControl(breakpoint.ttl)
}

function cacheControl(ttl: '5m' | '1h'): AnthropicCacheControl {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' }
}

/** Appends a projected message's blocks; returns the last block it made, if any. */
function appendProjected(
  messages: AnthropicMessage[],
  message: ProjectedMessage,
  toolNames: ProviderToolNames,
  options: FormatOptions,
): AnthropicContentBlock | undefined {
  switch (message.role) {
    case 'system':
      return hasText(message.content)
        ? appendText(messages, 'user', anthropicSystemNotePrefix + speakerText(message.name, message.content))
        : undefined
    case 'user':
      return message.parts === undefined
        ? appendText(messages, 'user', speakerText(message.name, message.content))
        : appendParts(messages, message.parts, message.name, options)
    case 'assistant': {
      let last = appendText(messages, 'assistant', speakerText(message.name, message.content))
      // The API has no refusal field: the refusal is what the assistant said.
      if (message.refusal !== undefined) last = appendText(messages, 'assistant', message.refusal) ?? last
      for (const call of message.toolCalls ?? []) {
        last = append(messages, 'assistant', {
          type: 'tool_use',
          id: anthropicToolId(call.id),
          name: toolNames.toProvider(call.name),
          input: call.arguments,
        })
      }
      return last
    }
    case 'tool':
      return append(messages, 'user', toolResultBlock(message))
  }
}

function toolResultBlock(message: Extract<ProjectedMessage, { role: 'tool' }>): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: anthropicToolId(message.toolCallId) }
  if (message.content !== '') block.content = message.content
  else if (message.isError === true) block.content = emptyErrorText
  if (message.isError === true) block.is_error = true
  return block
}

function appendText(messages: AnthropicMessage[], role: AnthropicMessage['role'], text: string): AnthropicContentBlock | undefined {
  return hasText(text) ? append(messages, role, { type: 'text', text }) : undefined
}

// Blocks join the last message when the role matches, so dropped messages never break alternation.
function append(messages: AnthropicMessage[], role: AnthropicMessage['role'], block: AnthropicContentBlock): AnthropicContentBlock {
  const last = messages.at(-1)
  if (last === undefined || last.role !== role) {
    messages.push({ role, content: [block] })
    return block
  }
  // A tool result always lands first in its user message: projected results directly follow their call.
  last.content.push(block)
  return block
}

// The API rejects a final assistant turn (a prefill) that ends in whitespace.
function trimFinalAssistantText(messages: AnthropicMessage[]): void {
  const last = messages.at(-1)
  if (last?.role !== 'assistant') return
  const block = last.content.at(-1)
  if (block?.type === 'text') block.text = block.text.trimEnd()
}

/**
 * The Messages API has no speaker names: a named message's text starts with `name: ` (see
 * docs/formats.md), so the model still tells the speakers of a group chat apart.
 */
export function speakerText(name: string | undefined, text: string): string {
  return name === undefined ? text : `${name}: ${text}`
}

/** A user message given as parts: each part its own block, in order; the speaker's name on the first text. */
function appendParts(
  messages: AnthropicMessage[],
  parts: readonly ContentPart[],
  name: string | undefined,
  options: FormatOptions,
): AnthropicContentBlock | undefined {
  let last: AnthropicContentBlock | undefined
  let named = name === undefined
  for (const part of parts) {
    if (part.type === 'text') {
      last = appendText(messages, 'user', named ? part.text : speakerText(name, part.text)) ?? last
      if (hasText(part.text)) named = true
      continue
    }
    if (!named) {
      last = appendText(messages, 'user', `${name as string}:`) ?? last
      named = true
    }
    last = append(messages, 'user', mediaBlock(part, options))
  }
  return last
}

function mediaBlock(part: Exclude<ContentPart, { type: 'text' }>, options: FormatOptions): AnthropicContentBlock {
  const source = part.source
  if (source.type === 'provider-file') {
    // Another provider's upload: Anthropic cannot read it, so the model is told what is missing.
    return { type: 'text', text: `[${part.type} ${source.fileId} is not available to this model]` }
  }
  const url = source.type === 'url' ? source.url : undefined
  const inline =
    url === undefined
      ? {
          mediaType: mediaTypeOf(source) ?? 'application/octet-stream',
          data: attachmentBase64(source as Extract<typeof source, { type: 'attachment' }>, options),
        }
      : parseDataUrl(url)
  if (part.type === 'image') {
    if (inline === undefined) return { type: 'image', source: { type: 'url', url: url as string } }
    const mediaType = anthropicImageMediaTypes.find((type) => type === inline.mediaType)
    // Another type would be refused with the whole request: the model is told what is missing.
    if (mediaType === undefined)
      return { type: 'text', text: `[image of type ${inline.mediaType} left out: the Messages API takes JPEG, PNG, GIF and WebP images]` }
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: inline.data } }
  }
  const title = part.filename === undefined ? {} : { title: part.filename }
  if (inline === undefined) return { type: 'document', source: { type: 'url', url: url as string }, ...title }
  if (inline.mediaType.startsWith('text/'))
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: base64Utf8(inline.data) }, ...title }
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: inline.data }, ...title }
}
