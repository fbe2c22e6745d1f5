import { toolArgumentsText } from '../entries/entry-text'
import type { ProjectedMessage, ProjectionResult } from '../project/types'
import { cacheBreakpoints } from '../caching/cache-breakpoints'
import { providerToolNames, type ProviderToolNames } from '../parts/provider-tool-names'
import { parseDataUrl, type ContentPart, type MediaSource } from '../entries/content-parts'
import { AttachmentUnavailableError } from '../errors/threadlens-error'
import { base64Utf8 } from '../utils/base64-utf8'

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

/** Caches the prompt up to and including this part (GPT-5.6 and later); see `ToOpenAIChatOptions.cacheBreakpoints`. */
export interface OpenAIChatCacheBreakpoint {
  mode: 'explicit'
}

export interface OpenAIChatTextPart {
  type: 'text'
  text: string
  prompt_cache_breakpoint?: OpenAIChatCacheBreakpoint
}

export interface OpenAIChatImagePart {
  type: 'image_url'
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' }
  prompt_cache_breakpoint?: OpenAIChatCacheBreakpoint
}

export interface OpenAIChatFilePart {
  type: 'file'
  /** `file_data` is a `data:` URL (base64); `file_id` an uploaded file. */
  file: { file_data?: string; file_id?: string; filename?: string }
  prompt_cache_breakpoint?: OpenAIChatCacheBreakpoint
}

export type OpenAIChatUserPart = OpenAIChatTextPart | OpenAIChatImagePart | OpenAIChatFilePart

export interface OpenAIChatSystemMessage {
  role: 'system'
  content: string | OpenAIChatTextPart[]
  /** The speaker's name. */
  name?: string
}

export interface OpenAIChatUserMessage {
  role: 'user'
  content: string | OpenAIChatUserPart[]
  name?: string
}

export interface OpenAIChatAssistantMessage {
  role: 'assistant'
  /** `null` only when the message carries tool calls or a refusal and no text. */
  content: string | OpenAIChatTextPart[] | null
  name?: string
  /** The model's refusal, apart from its text. */
  refusal?: string
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
export type OpenAIChatMessage = OpenAIChatSystemMessage | OpenAIChatUserMessage | OpenAIChatAssistantMessage | OpenAIChatToolMessage

/** Options of `toOpenAIChat` and `toAnthropicMessages`. */
export interface FormatOptions {
  /**
   * How tool names go on the wire; use the same mapping for the request's tool schemas and to read
   * the reply's tool calls back. Default: `providerToolNames(result)` (valid names unchanged).
   */
  readonly toolNames?: ProviderToolNames
  /**
   * The base64 bytes of a store-held attachment (`{ type: 'attachment' }` sources), by id; the
   * agent loads them before it formats a request. Default: none, and a projection holding such a
   * part throws `AttachmentUnavailableError`.
   */
  readonly attachmentData?: (id: string) => string | undefined
}

export interface ToOpenAIChatOptions extends FormatOptions {
  /**
   * Mark `cacheBreakpoints(result).openAI` with `prompt_cache_breakpoint` (on the last content part of
   * those messages; a string becomes one text part). Only GPT-5.6 and later accept the field
   * (`openAITakesCacheBreakpoints`); other models and most OpenAI-compatible servers reject or ignore
   * it. Default false.
   */
  readonly cacheBreakpoints?: boolean
  /**
   * Call ids to send in place of the stored ones, by stored id: `originalToolCallIds(entries)` (from
   * `@threadlens/core/import`) gives back the ids an imported conversation used where the import
   * renamed a reused one. Chat Completions takes an id again once its call is answered (the rules
   * are per assistant message), so the request stays valid. Default: the stored ids.
   */
  readonly toolCallIds?: ReadonlyMap<string, string>
}

/**
 * The projection as a Chat Completions `messages` array, one message per projected message.
 * Fresh objects with a fixed key order, so the same projection gives byte-identical JSON
 * (which keeps the provider's prompt cache warm). Tool names that break `toolNamePattern` (stored
 * before the rule) go out as `options.toolNames` maps them.
 */
export function toOpenAIChat(result: ProjectionResult, options: ToOpenAIChatOptions = {}): OpenAIChatMessage[] {
  const toolNames = options.toolNames ?? providerToolNames(result)
  const messages = result.messages.map((message) => toOpenAIChatMessage(message, toolNames, options))
  if (options.cacheBreakpoints !== true) return messages
  for (const breakpoint of cacheBreakpoints(result).openAI) {
    const message = messages[breakpoint.at as number]
    if (message === undefined || message.role === 'assistant') continue
    if (typeof message.content === 'string') {
      message.content = [{ type: 'text', text: message.content, prompt_cache_breakpoint: { mode: 'explicit' } }]
      continue
    }
    const last = message.content[message.content.length - 1]
    if (last !== undefined) last.prompt_cache_breakpoint = { mode: 'explicit' }
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

function toOpenAIChatMessage(message: ProjectedMessage, toolNames: ProviderToolNames, options: ToOpenAIChatOptions): OpenAIChatMessage {
  switch (message.role) {
    case 'system':
      return withName({ role: 'system', content: message.parts === undefined ? message.content : textParts(message.parts) }, message.name)
    case 'user':
      return withName({ role: 'user', content: message.parts === undefined ? message.content : userParts(message.parts, options) }, message.name)
    case 'assistant': {
      const toolCalls = message.toolCalls ?? []
      const content =
        message.parts !== undefined
          ? textParts(message.parts)
          : message.content === '' && (toolCalls.length > 0 || message.refusal !== undefined)
            ? null
            : message.content
      const assistant: OpenAIChatAssistantMessage = withName({ role: 'assistant', content }, message.name)
      if (message.refusal !== undefined) assistant.refusal = message.refusal
      if (toolCalls.length === 0) return assistant
      return {
        ...assistant,
        tool_calls: toolCalls.map((call) => ({
          id: options.toolCallIds?.get(call.id) ?? call.id,
          type: 'function',
          function: { name: toolNames.toProvider(call.name), arguments: toolArgumentsText(call) },
        })),
      }
    }
    case 'tool':
      // OpenAI has no error flag on tool messages; the projector already wrote errors into the text.
      return {
        role: 'tool',
        tool_call_id: options.toolCallIds?.get(message.toolCallId) ?? message.toolCallId,
        content: message.parts === undefined ? message.content : textParts(message.parts),
      }
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

// Key order role, content, name: fixed, so the same projection gives the same bytes.
function withName<TMessage extends { role: string; content: unknown; name?: string }>(message: TMessage, name: string | undefined): TMessage {
  if (name !== undefined) message.name = name
  return message
}

function textParts(parts: readonly ContentPart[]): OpenAIChatTextPart[] {
  // Only user messages may hold images and files (the entry schema sees to it).
  return parts.filter((part) => part.type === 'text').map((part) => ({ type: 'text', text: part.text }))
}

function userParts(parts: readonly ContentPart[], options: FormatOptions): OpenAIChatUserPart[] {
  return parts.map((part): OpenAIChatUserPart => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text }
      case 'image': {
        const url = part.source.type === 'provider-file' ? undefined : sourceUrl(part.source, options)
        // The Chat Completions API takes images only as URLs: an uploaded file id goes as a file part.
        if (url === undefined) return { type: 'file', file: { file_id: (part.source as { fileId: string }).fileId } }
        return { type: 'image_url', image_url: part.detail === undefined ? { url } : { url, detail: part.detail } }
      }
      case 'file': {
        const file: OpenAIChatFilePart['file'] = {}
        if (part.source.type === 'provider-file') file.file_id = part.source.fileId
        else {
          const url = sourceUrl(part.source, options)
          // The API takes file bytes only inline: a web address is passed on as text.
          if (!url.startsWith('data:')) return { type: 'text', text: `${part.filename ?? 'File'}: ${url}` }
          // Chat Completions takes only PDF files: a text file goes as its text, any other type is named, not sent.
          const data = parseDataUrl(url)
          if (data !== undefined && data.mediaType !== 'application/pdf') return nonPdfFile(part.filename, data)
          file.file_data = url
        }
        if (part.filename !== undefined) file.filename = part.filename
        return { type: 'file', file }
      }
    }
  })
}

/** Media types whose bytes are text a model can read as they are. */
export function isTextMediaType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    /^application\/(?:json|xml|x-yaml|yaml|javascript|x-ndjson)$/.test(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  )
}

/**
 * A file Chat Completions cannot take as a file part (it accepts PDFs only, per OpenAI's file
 * inputs guide): a text file as a text part holding its name and its (UTF-8) text; anything else
 * as a note saying it was not sent.
 */
function nonPdfFile(filename: string | undefined, data: { mediaType: string; data: string }): OpenAIChatTextPart {
  const name = filename ?? 'file'
  if (!isTextMediaType(data.mediaType)) return { type: 'text', text: `[${name} (${data.mediaType}) not sent: Chat Completions takes only PDF files]` }
  return { type: 'text', text: `${name}:\n${base64Utf8(data.data)}` }
}

/** A URL for a source: as stored, or a `data:` URL built from the attachment's bytes. */
export function sourceUrl(source: Exclude<MediaSource, { type: 'provider-file' }>, options: FormatOptions): string {
  if (source.type === 'url') return source.url
  return `data:${source.mediaType};base64,${attachmentBase64(source, options)}`
}

/** The base64 bytes of a store-held attachment, from `options.attachmentData`; throws `AttachmentUnavailableError`. */
export function attachmentBase64(source: Extract<MediaSource, { type: 'attachment' }>, options: FormatOptions): string {
  const data = options.attachmentData?.(source.id)
  if (data === undefined) throw new AttachmentUnavailableError(source.id)
  return data
}
