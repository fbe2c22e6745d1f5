import type { JsonObject } from '../entries/entry'
import type { ProjectedMessage, ProjectionResult } from '../project/types'

export interface AnthropicTextBlock {
  type: 'text'
  text: string
}

export interface AnthropicToolUseBlock {
  type: 'tool_use'
  /** Always matches `anthropicToolIdPattern`; see `anthropicToolId`. */
  id: string
  name: string
  /** The arguments object, shared with the projection: treat it as read-only. */
  input: JsonObject
}

export interface AnthropicToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  /** Absent when the tool returned empty text: the API rejects empty text. */
  content?: string
  /** Present (and `true`) only for failed calls. */
  is_error?: true
}

export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicContentBlock[]
}

/** The `system` and `messages` fields of a Messages API request; add `model`, `max_tokens`, `tools` yourself. */
export interface AnthropicMessagesRequest {
  /** The leading system messages joined by a blank line; absent when there are none. */
  system?: string
  messages: AnthropicMessage[]
}

/** What the Messages API accepts as a `tool_use` id. */
export const anthropicToolIdPattern = /^[a-zA-Z0-9_-]+$/

/**
 * Stands in for the user turn the Messages API requires first, when the projection's history
 * starts with an assistant message (e.g. a window or budget cut off the user's question).
 */
export const anthropicOmittedHistoryText = '[earlier conversation omitted]'

/** Prefixes a system message that appears after history has begun; the API has no mid-conversation system role. */
export const anthropicSystemNotePrefix = 'System note: '

// The API rejects a tool_result with is_error and no content.
const emptyErrorText = 'Error'

/**
 * A tool call id the Messages API accepts. Ids that already match `anthropicToolIdPattern` pass
 * through; any other character becomes `_` and a hash of the original id is appended, so two ids
 * that differ only in replaced characters stay distinct. Pure: a call and its result map alike.
 */
export function anthropicToolId(id: string): string {
  if (anthropicToolIdPattern.test(id)) return id
  let sanitized = ''
  for (const character of id) sanitized += /[a-zA-Z0-9_-]/.test(character) ? character : '_'
  return `${sanitized}_${fnv1aHex(id)}`
}

// FNV-1a over UTF-16 code units: tiny, stable across runtimes, and collisions need the same sanitized prefix too.
function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

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
 * whitespace. Deterministic: the same projection gives byte-identical JSON.
 */
export function toAnthropicMessages(result: ProjectionResult): AnthropicMessagesRequest {
  const systemParts: string[] = []
  let historyStart = 0
  for (const message of result.messages) {
    if (message.role !== 'system') break
    if (hasText(message.content)) systemParts.push(message.content)
    historyStart += 1
  }

  const messages: AnthropicMessage[] = []
  for (const message of result.messages.slice(historyStart)) appendProjected(messages, message)

  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: anthropicOmittedHistoryText }] })
  }
  trimFinalAssistantText(messages)

  return systemParts.length === 0 ? { messages } : { system: systemParts.join('\n\n'), messages }
}

function appendProjected(messages: AnthropicMessage[], message: ProjectedMessage): void {
  switch (message.role) {
    case 'system':
      if (hasText(message.content)) appendText(messages, 'user', anthropicSystemNotePrefix + message.content)
      return
    case 'user':
      appendText(messages, 'user', message.content)
      return
    case 'assistant':
      appendText(messages, 'assistant', message.content)
      for (const call of message.toolCalls ?? []) {
        append(messages, 'assistant', { type: 'tool_use', id: anthropicToolId(call.id), name: call.name, input: call.arguments })
      }
      return
    case 'tool':
      append(messages, 'user', toolResultBlock(message))
      return
  }
}

function toolResultBlock(message: Extract<ProjectedMessage, { role: 'tool' }>): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: anthropicToolId(message.toolCallId) }
  if (message.content !== '') block.content = message.content
  else if (message.isError === true) block.content = emptyErrorText
  if (message.isError === true) block.is_error = true
  return block
}

function appendText(messages: AnthropicMessage[], role: AnthropicMessage['role'], text: string): void {
  if (hasText(text)) append(messages, role, { type: 'text', text })
}

// Blocks join the last message when the role matches, so dropped messages never break alternation.
function append(messages: AnthropicMessage[], role: AnthropicMessage['role'], block: AnthropicContentBlock): void {
  const last = messages.at(-1)
  if (last === undefined || last.role !== role) {
    messages.push({ role, content: [block] })
    return
  }
  // A tool result always lands first in its user message: projected results directly follow their call.
  last.content.push(block)
}

// The API rejects a final assistant turn (a prefill) that ends in whitespace.
function trimFinalAssistantText(messages: AnthropicMessage[]): void {
  const last = messages.at(-1)
  if (last?.role !== 'assistant') return
  const block = last.content.at(-1)
  if (block?.type === 'text') block.text = block.text.trimEnd()
}
