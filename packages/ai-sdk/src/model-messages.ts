import { project } from '@threadlens/core'
import type { Entry, ProjectionResult, ThreadSource } from '@threadlens/core'
import type { ProjectInput } from '@threadlens/core/internal'
import { bytesToBase64, type AttachmentStore } from '@threadlens/store/attachments'
import { AttachmentUnavailableError, mediaTypeOf, parseDataUrl, type ContentPart } from '@threadlens/core/parts'
import type { FilePart, FileUIPart, ImagePart, ModelMessage, SystemModelMessage, TextPart } from 'ai'
import { parseAttachmentReference } from './attachment-reference'
import { uiRecordOf } from './ui-message-entries'

function entriesOf(thread: ThreadSource | readonly Entry[]): readonly Entry[] {
  return Array.isArray(thread) ? thread : (thread as ThreadSource).entries
}

/** The file parts of the UI messages stored on the user entries at `seqs`. */
function uiFileParts(bySeq: ReadonlyMap<number, Entry>, seqs: readonly number[]): FileUIPart[] {
  const files: FileUIPart[] = []
  for (const seq of seqs) {
    const entry = bySeq.get(seq)
    const message = entry === undefined ? undefined : uiRecordOf(entry)?.message
    if (message === undefined || message.role !== 'user') continue
    for (const part of message.parts) if (part.type === 'file') files.push(part)
  }
  return files
}

/** The bytes of a `data:` URL's percent-encoded (not base64) payload (RFC 2397). */
function percentDecodedBytes(text: string): Uint8Array {
  const encoder = new TextEncoder()
  const bytes: number[] = []
  for (let index = 0; index < text.length;) {
    const hex = text.slice(index + 1, index + 3)
    if (text[index] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      index += 3
    } else {
      const character = String.fromCodePoint(text.codePointAt(index) as number)
      bytes.push(...encoder.encode(character))
      index += character.length
    }
  }
  return Uint8Array.from(bytes)
}

/**
 * A file's URL as model data: the URL, or for a `data:` URL that is not base64 (`data:text/plain,hi`),
 * its bytes as base64 (the SDK reads every `data:` URL as base64).
 */
function fileData(url: string): URL | string {
  if (!/^data:/i.test(url) || parseDataUrl(url) !== undefined) return new URL(url)
  const comma = url.indexOf(',')
  return bytesToBase64(percentDecodedBytes(comma < 0 ? '' : url.slice(comma + 1)))
}

/** A UI file part as the SDK sends it (`convertToModelMessages`): a `file` part with its media type and name. */
function modelFilePart(part: FileUIPart): FilePart | undefined {
  // a blob: URL lives only in the page that made it: the UI keeps it, the model is not sent it
  if (!/^(https?:|data:)/i.test(part.url)) return undefined
  let url: URL | string
  try {
    url = fileData(part.url)
  } catch {
    return undefined // not a URL the provider could fetch or decode: the UI keeps it, the model is not sent it
  }
  return { type: 'file', data: url, mediaType: part.mediaType, ...(part.filename === undefined ? {} : { filename: part.filename }) }
}

/** Core's text of a failed result, `Error: <error>`, without the prefix (`error-text` already says it). */
function errorText(content: string): string {
  return content.startsWith('Error: ') ? content.slice('Error: '.length) : content
}

/** Options of `toModelMessages` and `projectModelMessages`. */
export interface ModelMessagesOptions {
  /**
   * The base64 bytes of store-held attachments the projection sends (the store's
   * `attachments.dataFor(projection)`). Default: none, and such a part throws `AttachmentUnavailableError`.
   */
  readonly attachmentData?: (id: string) => string | undefined
}

/** A user message's own parts (core's text, images and files) as model parts, in order. */
function coreParts(
  parts: readonly ContentPart[],
  options: ModelMessagesOptions,
  uiFiles: readonly FileUIPart[],
): (TextPart | ImagePart | FilePart)[] {
  const unmatched = [...uiFiles]
  return parts.map((part): TextPart | ImagePart | FilePart => {
    if (part.type === 'text') return { type: 'text', text: part.text }
    const source = part.source
    // A file a UI message sent goes as the SDK sends it, with the media type the UI part knows (each UI part once, in order).
    const at = unmatched.findIndex((file) =>
      source.type === 'url' ? file.url === source.url : source.type === 'attachment' && parseAttachmentReference(file.url)?.id === source.id,
    )
    const ui = at < 0 ? undefined : unmatched.splice(at, 1)[0]
    if (ui !== undefined && source.type === 'attachment') {
      const base64 = options.attachmentData?.(source.id)
      if (base64 === undefined) throw new AttachmentUnavailableError(source.id)
      return { type: 'file', data: base64, mediaType: ui.mediaType, ...(ui.filename === undefined ? {} : { filename: ui.filename }) }
    }
    const sent = ui === undefined ? undefined : modelFilePart(ui)
    if (sent !== undefined) return sent
    if (source.type === 'provider-file') return { type: 'text', text: `[${part.type} ${source.fileId} is not available to this model]` }
    const mediaType = mediaTypeOf(source)
    let data: URL | string
    if (source.type === 'url') data = fileData(source.url)
    else {
      const base64 = options.attachmentData?.(source.id)
      if (base64 === undefined) throw new AttachmentUnavailableError(source.id)
      data = base64
    }
    if (part.type === 'image') return { type: 'image', image: data, ...(mediaType === undefined ? {} : { mediaType }) }
    return {
      type: 'file',
      data,
      mediaType: mediaType ?? 'application/octet-stream',
      ...(part.filename === undefined ? {} : { filename: part.filename }),
    }
  })
}

/**
 * A projection as AI SDK `ModelMessage`s, for `streamText`/`generateText` `messages`. The
 * projection decides what is sent (budget, windows, summaries, tool pairing); this only changes
 * shape: tool calls become `tool-call` parts of their assistant message, each tool message a
 * `tool-result` (`error-text` when the call failed or was denied), a user message's own parts
 * (core's text, images and files) go as `text`, `image` and `file` parts in order; a UI message's
 * files go as the SDK sends them, `file` parts with their media type and name. An assistant message with no text
 * and no tool calls (e.g. only reasoning was shown) is not sent.
 */
export function toModelMessages(
  projection: ProjectionResult,
  thread: ThreadSource | readonly Entry[],
  options: ModelMessagesOptions = {},
): ModelMessage[] {
  const bySeq = new Map<number, Entry>()
  for (const entry of entriesOf(thread)) bySeq.set(entry.seq, entry)
  const result: ModelMessage[] = []
  projection.messages.forEach((message, index) => {
    const info = projection.meta.messages[index]
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: message.content })
        return
      case 'user': {
        const uiFiles = uiFileParts(bySeq, info?.seqs ?? [])
        if (message.parts !== undefined) {
          result.push({ role: 'user', content: coreParts(message.parts, options, uiFiles) })
          return
        }
        // stored before user files became content parts: the UI message's files follow its text
        const files = uiFiles.flatMap((part) => modelFilePart(part) ?? [])
        if (files.length === 0) {
          result.push({ role: 'user', content: message.content })
        } else {
          const text: TextPart[] = message.content === '' ? [] : [{ type: 'text', text: message.content }]
          result.push({ role: 'user', content: [...text, ...files] })
        }
        return
      }
      case 'assistant': {
        const calls = message.toolCalls ?? []
        if (calls.length === 0) {
          if (message.content !== '') result.push({ role: 'assistant', content: message.content })
          return
        }
        result.push({
          role: 'assistant',
          content: [
            ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
            ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.arguments })),
          ],
        })
        return
      }
      case 'tool':
        result.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.name,
              // `error-text` says it is an error: the text is the error itself, as the SDK sends an `output-error` part
              output: message.isError === true ? { type: 'error-text', value: errorText(message.content) } : { type: 'text', value: message.content },
            },
          ],
        })
        return
    }
  })
  return result
}

export interface ModelMessagesProjection {
  /**
   * The leading system messages (system prompt, memory, summary): pass them as `instructions`, since
   * `streamText`/`generateText` refuse system messages in `messages` unless `allowSystemInMessages`.
   */
  readonly instructions: SystemModelMessage[] | undefined
  /** The rest, in order: what to pass as `messages`. */
  readonly messages: ModelMessage[]
  /** The projection they came from: tokens per segment, included and dropped entries, and why. */
  readonly projection: ProjectionResult
}

/** Splits the leading system messages off (for `instructions`); any later ones stay in place. */
export function splitInstructions(messages: readonly ModelMessage[]): { instructions: SystemModelMessage[] | undefined; messages: ModelMessage[] } {
  let split = 0
  while (messages[split]?.role === 'system') split += 1
  return { instructions: split === 0 ? undefined : (messages.slice(0, split) as SystemModelMessage[]), messages: messages.slice(split) }
}

/**
 * Projects a thread under a policy (core's `project`) and returns it as AI SDK input:
 * `streamText({ model, instructions, messages })`.
 */
export function projectModelMessages(input: ProjectInput, options: ModelMessagesOptions = {}): ModelMessagesProjection {
  const projection = project(input)
  return { ...splitInstructions(toModelMessages(projection, input.thread, options)), projection }
}

/**
 * `projectModelMessages` with the bytes of the store-held files the projection sends read from
 * `attachments` (the chat's attachment store) first. Without a store it is `projectModelMessages`.
 */
export async function projectModelMessagesWithFiles(input: ProjectInput, attachments: AttachmentStore | undefined): Promise<ModelMessagesProjection> {
  if (attachments === undefined) return projectModelMessages(input)
  const projection = project(input)
  const attachmentData = await attachments.dataFor(projection)
  return { ...splitInstructions(toModelMessages(projection, input.thread, { attachmentData })), projection }
}
