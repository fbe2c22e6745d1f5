import type { ContentPart, EntryInput, MessagePayload, Role } from '../entries/entry'
import { type MediaSource, PART_TEXT_SEPARATOR, partsText } from '../entries/content-parts'
import { InvalidMessagesError, InvalidToolNameError } from '../errors/threadlens-error'
import { isValidToolName } from '../entries/tool-name'
import { read } from '../validation/readers'
import { openAIChatMessagesReader, type ImportedPart, type ParsedMessage } from './openai-chat-import-readers'
import {
  checked,
  fromProblem,
  messageField,
  parseArguments,
  refuseUnsupportedFields,
  toolCallField,
  toolResultField,
} from './openai-chat-import-checks'

export interface FromOpenAIChatResult {
  /** The leading system (or developer) messages joined by a blank line; `undefined` when there are none. */
  systemPrompt: string | undefined
  /** Entries to append, in order. */
  entries: EntryInput[]
}

/**
 * Imports a Chat Completions `messages` array (e.g. an export of another app) as thread entries.
 * Leading system or developer messages become `systemPrompt`; later ones become system `message`
 * entries. An assistant message becomes a `message` entry (skipped when it only calls tools) and
 * one `tool_call` entry per call, all sharing `refs.callId` `import-<index>`; a tool message
 * becomes a `tool_result` entry named after the call it answers. Content given as parts stays parts
 * (text, `image_url` as image parts, `file` as file parts; `content` holds the text parts joined by
 * a newline); `name` and `refusal` are kept. `audio`, `input_audio` parts, the legacy `function_call`
 * field and `function` role are refused, named. Calls left unanswered are kept (the projector deals
 * with them). What does not come back byte for byte through `toOpenAIChat` is listed in
 * docs/formats.md. Throws `InvalidMessagesError` naming the message index and field. Does not mutate `messages`.
 */
export function fromOpenAIChat(messages: unknown): FromOpenAIChatResult {
  refuseUnsupportedFields(messages)
  const parsed = read(openAIChatMessagesReader, messages)
  if (!parsed.ok) throw fromProblem(parsed.problem)

  const entries: EntryInput[] = []
  const systemParts: string[] = []
  const calls = new Map<string, ImportedCall>()
  let inPrefix = true

  parsed.value.forEach((message, index) => {
    const isSystem = message.role === 'system' || message.role === 'developer'
    // Only plain system text joins the system prompt: a named or multi-part one stays a message of its own.
    if (inPrefix && isSystem && typeof message.content === 'string' && message.name === undefined) {
      systemParts.push(message.content)
      return
    }
    inPrefix = false
    entries.push(...messageEntries(message, index, calls))
  })

  return { systemPrompt: systemParts.length === 0 ? undefined : systemParts.join('\n\n'), entries }
}

// Keyed by call id, which must be unique across the import so each result pairs with one call.
interface ImportedCall {
  readonly name: string
  /** Index of the assistant message that made the call. */
  readonly index: number
  answered: boolean
}

function messageEntries(message: ParsedMessage, index: number, calls: Map<string, ImportedCall>): EntryInput[] {
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user': {
      const role = message.role === 'user' ? 'user' : 'system'
      return [checked({ kind: 'message', payload: messagePayload(role, message.content, message.name, undefined, index) }, index, messageField)]
    }
    case 'assistant':
      return assistantEntries(message, index, calls)
    case 'tool':
      return [toolResultEntry(message, index, calls)]
  }
}

function assistantEntries(
  message: Extract<ParsedMessage, { role: 'assistant' }>,
  index: number,
  calls: Map<string, ImportedCall>,
): EntryInput[] {
  const toolCalls = message.tool_calls ?? []
  const hasContent = message.content !== null && message.content !== undefined
  const refusal = message.refusal ?? undefined
  if (!hasContent && toolCalls.length === 0 && refusal === undefined) {
    throw new InvalidMessagesError(index, 'content', 'an assistant message needs content, refusal or tool_calls')
  }
  const payload = messagePayload('assistant', message.content ?? '', message.name, refusal, index)
  // One imported assistant message stands for one model call.
  const callId = `import-${index}`
  const entries: EntryInput[] = []
  // A message with tool calls and nothing else of its own is carried by the calls alone.
  if (toolCalls.length === 0 || payload.content !== '' || payload.name !== undefined || payload.refusal !== undefined || payload.parts !== undefined) {
    entries.push(checked({ kind: 'message', payload, refs: { callId } }, index, messageField))
  }
  toolCalls.forEach((call, callIndex) => {
    const earlier = calls.get(call.id)
    if (earlier !== undefined) {
      throw new InvalidMessagesError(
        index,
        `tool_calls.${callIndex}.id`,
        `tool call id "${call.id}" is already used by the message at index ${earlier.index}; give each call its own id`,
      )
    }
    if (!isValidToolName(call.function.name)) {
      const rule = new InvalidToolNameError(call.function.name).rule
      throw new InvalidMessagesError(index, `tool_calls.${callIndex}.function.name`, rule)
    }
    calls.set(call.id, { name: call.function.name, index, answered: false })
    const argumentsField = `tool_calls.${callIndex}.function.arguments`
    const entry: EntryInput = {
      kind: 'tool_call',
      payload: { name: call.function.name, arguments: parseArguments(call.function.arguments, index, argumentsField) },
      refs: { callId, toolCallId: call.id },
    }
    entries.push(checked(entry, index, (entryField) => toolCallField(entryField, callIndex)))
  })
  return entries
}

function toolResultEntry(
  message: Extract<ParsedMessage, { role: 'tool' }>,
  index: number,
  calls: Map<string, ImportedCall>,
): EntryInput {
  const call = calls.get(message.tool_call_id)
  if (call === undefined) {
    throw new InvalidMessagesError(
      index,
      'tool_call_id',
      `no earlier assistant message has a tool call with id "${message.tool_call_id}"`,
    )
  }
  if (call.answered) {
    throw new InvalidMessagesError(index, 'tool_call_id', `tool call "${message.tool_call_id}" is already answered`)
  }
  call.answered = true
  const entry: EntryInput = {
    kind: 'tool_result',
    payload: { name: call.name, result: contentText(message.content) },
    refs: { toolCallId: message.tool_call_id },
  }
  return checked(entry, index, toolResultField)
}

function contentText(content: string | readonly { text: string }[]): string {
  // Tool results are text: their parts join by a newline, as message parts do (see docs/formats.md).
  return typeof content === 'string' ? content : content.map((part) => part.text).join(PART_TEXT_SEPARATOR)
}


function messagePayload(role: Role, content: string | readonly ImportedPart[], name: string | undefined, refusal: string | undefined, index: number): MessagePayload {
  const parts = typeof content === 'string' ? undefined : content.map((part, partIndex) => importedPart(part, index, partIndex))
  const payload: { role: Role; content: string; name?: string; refusal?: string; parts?: ContentPart[] } = {
    role,
    content: parts === undefined ? (content as string) : partsText(parts),
  }
  if (name !== undefined) payload.name = name
  if (refusal !== undefined) payload.refusal = refusal
  if (parts !== undefined) payload.parts = parts
  return payload
}

function importedPart(part: ImportedPart, index: number, partIndex: number): ContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text }
    case 'image_url': {
      const image: { type: 'image'; source: MediaSource; detail?: 'auto' | 'low' | 'high' } = { type: 'image', source: { type: 'url', url: part.image_url.url } }
      if (part.image_url.detail !== undefined) image.detail = part.image_url.detail
      return image
    }
    case 'file': {
      const { file_data: data, file_id: fileId, filename } = part.file
      const field = `content.${partIndex}.file`
      if ((data === undefined) === (fileId === undefined)) throw new InvalidMessagesError(index, field, 'a file part needs exactly one of file_data and file_id')
      if (data !== undefined && !data.startsWith('data:')) throw new InvalidMessagesError(index, `${field}.file_data`, 'file_data must be a data: URL (data:<media type>;base64,<bytes>)')
      const file: { type: 'file'; source: MediaSource; filename?: string } = {
        type: 'file',
        source: data !== undefined ? { type: 'url', url: data } : { type: 'provider-file', fileId: fileId as string },
      }
      if (filename !== undefined) file.filename = filename
      return file
    }
  }
}
