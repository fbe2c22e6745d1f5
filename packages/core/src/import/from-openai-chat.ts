import type { ContentPart, Entry, EntryInput, MessagePayload, Role } from '../entries/entry'
import { type MediaSource, PART_TEXT_SEPARATOR, partsText, type TextPart } from '../entries/content-parts'
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
  /** What the import changed so the conversation could be kept (see `ImportChange`); `[]` when nothing. */
  changes: ImportChange[]
}

/**
 * A change the import made to what it was given, with the message index and field:
 * - `tool-call-id-renamed`: a call reused the id of an earlier, answered call (recorded models do);
 *   it and the results that answer it get `to` instead of `from` (the entries keep `from` in
 *   `meta.originalToolCallId`), so every result pairs with one call.
 * - `empty-arguments`: arguments `""`, `"null"` or only whitespace read as `{}`.
 * - `unsafe-integer`: an integer beyond 2^53 in the arguments, which a JSON number would change, is
 *   a string of its digits in the arguments object (tools and formats that take an object see that);
 *   the arguments text goes out as it came.
 * - `refusal-part-moved`: an assistant's `{ type: 'refusal' }` content part (`from`, its text) moved
 *   to the message's `refusal` (`to`): a message keeps one refusal, apart from its text parts.
 */
export interface ImportChange {
  readonly index: number
  readonly field: string
  readonly kind: 'tool-call-id-renamed' | 'empty-arguments' | 'unsafe-integer' | 'refusal-part-moved'
  readonly from: string
  readonly to: string
}

/**
 * Imports a Chat Completions `messages` array (e.g. an export of another app) as thread entries.
 * Leading system or developer messages become `systemPrompt`; later ones become system `message`
 * entries. An assistant message becomes a `message` entry (skipped when it only calls tools) and
 * one `tool_call` entry per call, all sharing `refs.callId` `import-<index>`; a tool message
 * becomes a `tool_result` entry named after the call it answers. Content given as parts stays parts
 * (text, `image_url` as image parts, `file` as file parts, a tool message's text parts as the
 * result's parts; `content` or `result` holds the text parts joined by a newline); `name` and
 * `refusal` are kept, and arguments text that `JSON.stringify` would not give back is kept as
 * `argumentsText`. `audio`, `input_audio` parts, the legacy `function_call` field and `function`
 * role are refused, named. Calls left unanswered are kept (the projector deals with them). What it
 * changes to keep a recorded conversation (a call id reused after its call was answered, empty
 * arguments, integers beyond 2^53, refusal parts) is returned in `changes`. What does not come back
 * byte for byte through `toOpenAIChat` is listed in docs/formats.md. Throws `InvalidMessagesError`
 * naming the message index and field. Does not mutate `messages`.
 */
export function fromOpenAIChat(messages: unknown): FromOpenAIChatResult {
  refuseUnsupportedFields(messages)
  const parsed = read(openAIChatMessagesReader, messages)
  if (!parsed.ok) throw fromProblem(parsed.problem)

  const entries: EntryInput[] = []
  const systemParts: string[] = []
  const calls: ImportState = { byId: new Map(), current: new Map(), changes: [] }
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

  return { systemPrompt: systemParts.length === 0 ? undefined : systemParts.join('\n\n'), entries, changes: calls.changes }
}

interface ImportedCall {
  readonly name: string
  /** Index of the assistant message that made the call. */
  readonly index: number
  answered: boolean
}

/** The calls imported so far, by the id they are stored under (unique across the import). */
interface ImportState {
  readonly byId: Map<string, ImportedCall>
  /** A given id's newest call: the id it is stored under (itself, or its renaming). */
  readonly current: Map<string, string>
  readonly changes: ImportChange[]
}

/** An id for a call that reuses `id`, unique among the calls so far and in the input's own ids: `id~2`, `id~3`, … */
function renamedId(id: string, calls: ImportState): string {
  for (let occurrence = 2; ; occurrence++) {
    const candidate = `${id}~${occurrence}`
    if (!calls.byId.has(candidate) && !calls.current.has(candidate)) return candidate
  }
}

function messageEntries(message: ParsedMessage, index: number, calls: ImportState): EntryInput[] {
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

function assistantEntries(message: Extract<ParsedMessage, { role: 'assistant' }>, index: number, calls: ImportState): EntryInput[] {
  const toolCalls = message.tool_calls ?? []
  const hasContent = message.content !== null && message.content !== undefined
  if (!hasContent && toolCalls.length === 0 && (message.refusal ?? undefined) === undefined) {
    throw new InvalidMessagesError(index, 'content', 'an assistant message needs content, refusal or tool_calls')
  }
  const { content, refusal } = assistantContent(message, index, calls.changes)
  const payload = messagePayload('assistant', content, message.name, refusal, index)
  // One imported assistant message stands for one model call.
  const callId = `import-${index}`
  const entries: EntryInput[] = []
  // A message with tool calls and nothing else of its own is carried by the calls alone.
  if (
    toolCalls.length === 0 ||
    payload.content !== '' ||
    payload.name !== undefined ||
    payload.refusal !== undefined ||
    payload.parts !== undefined
  ) {
    entries.push(checked({ kind: 'message', payload, refs: { callId } }, index, messageField))
  }
  toolCalls.forEach((call, callIndex) => {
    const storedId = storedCallId(call.id, index, callIndex, calls)
    if (!isValidToolName(call.function.name)) {
      const rule = new InvalidToolNameError(call.function.name).rule
      throw new InvalidMessagesError(index, `tool_calls.${callIndex}.function.name`, rule)
    }
    calls.byId.set(storedId, { name: call.function.name, index, answered: false })
    calls.current.set(call.id, storedId)
    const argumentsField = `tool_calls.${callIndex}.function.arguments`
    const entry: EntryInput = {
      kind: 'tool_call',
      payload: { name: call.function.name, ...parseArguments(call.function.arguments, index, argumentsField, calls.changes) },
      refs: { callId, toolCallId: storedId },
      ...originalIdMeta(call.id, storedId),
    }
    entries.push(checked(entry, index, (entryField) => toolCallField(entryField, callIndex)))
  })
  return entries
}

/** The id a call is stored under: its own, or a new one when an earlier, answered call used it. */
function storedCallId(id: string, index: number, callIndex: number, calls: ImportState): string {
  const earlierId = calls.current.get(id)
  // Free: never seen, and not taken by an earlier renaming.
  if (earlierId === undefined && !calls.byId.has(id)) return id
  const earlier = calls.byId.get(earlierId ?? id) as ImportedCall
  if (earlierId !== undefined && !earlier.answered) {
    // Two open calls with one id: a result could not tell them apart.
    throw new InvalidMessagesError(
      index,
      `tool_calls.${callIndex}.id`,
      `tool call id "${id}" is already used by the message at index ${earlier.index}, whose call is not answered yet; give each call its own id`,
    )
  }
  const renamed = renamedId(id, calls)
  calls.changes.push({ index, field: `tool_calls.${callIndex}.id`, kind: 'tool-call-id-renamed', from: id, to: renamed })
  return renamed
}

function toolResultEntry(message: Extract<ParsedMessage, { role: 'tool' }>, index: number, calls: ImportState): EntryInput {
  // A result answers the newest call with its id (renamed when the id was reused).
  const storedId = calls.current.get(message.tool_call_id) ?? message.tool_call_id
  const call = calls.byId.get(storedId)
  if (call === undefined) {
    throw new InvalidMessagesError(index, 'tool_call_id', `no earlier assistant message has a tool call with id "${message.tool_call_id}"`)
  }
  if (call.answered) {
    throw new InvalidMessagesError(index, 'tool_call_id', `tool call "${message.tool_call_id}" is already answered`)
  }
  call.answered = true
  if (storedId !== message.tool_call_id)
    calls.changes.push({ index, field: 'tool_call_id', kind: 'tool-call-id-renamed', from: message.tool_call_id, to: storedId })
  // Text parts stay parts; `result` holds their text, as a message's `content` does.
  const parts = typeof message.content === 'string' ? undefined : message.content.map((part): TextPart => ({ type: 'text', text: part.text }))
  const entry: EntryInput = {
    kind: 'tool_result',
    payload: parts === undefined ? { name: call.name, result: message.content as string } : { name: call.name, result: partsText(parts), parts },
    refs: { toolCallId: storedId },
    ...originalIdMeta(message.tool_call_id, storedId),
  }
  return checked(entry, index, toolResultField)
}

/**
 * The ids an imported conversation used, by the id each renamed call is stored under (from
 * `meta.originalToolCallId`): pass it to `toOpenAIChat` as `toolCallIds` to send the conversation's
 * own ids again. Empty when the import renamed nothing.
 */
export function originalToolCallIds(entries: readonly (Entry | EntryInput)[]): Map<string, string> {
  const ids = new Map<string, string>()
  for (const entry of entries) {
    const original = entry.meta?.originalToolCallId
    const stored = entry.refs?.toolCallId
    if (original !== undefined && stored !== undefined) ids.set(stored, original)
  }
  return ids
}

/** `meta.originalToolCallId` for an entry whose id the import renamed, so an export can give it back. */
function originalIdMeta(original: string, stored: string): { meta?: { originalToolCallId: string } } {
  return original === stored ? {} : { meta: { originalToolCallId: original } }
}

/**
 * An assistant's content and refusal as a message payload keeps them: refusal parts (the API's
 * `{ type: 'refusal' }`) join the `refusal` field, after its own text, each move reported.
 */
function assistantContent(
  message: Extract<ParsedMessage, { role: 'assistant' }>,
  index: number,
  changes: ImportChange[],
): { content: string | readonly ImportedPart[]; refusal: string | undefined } {
  const refusals = message.refusal === null || message.refusal === undefined ? [] : [message.refusal]
  const content = message.content ?? ''
  if (typeof content === 'string') return { content, refusal: refusals[0] }
  const text: ImportedPart[] = []
  content.forEach((part, partIndex) => {
    if (part.type === 'text') {
      text.push(part)
      return
    }
    refusals.push(part.refusal)
    changes.push({ index, field: `content.${partIndex}`, kind: 'refusal-part-moved', from: part.refusal, to: 'refusal' })
  })
  // Only refusal parts: no text of its own (it goes out as `content: null` beside the refusal).
  const kept = text.length === 0 && refusals.length > 0 ? '' : text
  return { content: kept, refusal: refusals.length === 0 ? undefined : refusals.join(PART_TEXT_SEPARATOR) }
}

function messagePayload(
  role: Role,
  content: string | readonly ImportedPart[],
  name: string | undefined,
  refusal: string | undefined,
  index: number,
): MessagePayload {
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
      const image: { type: 'image'; source: MediaSource; detail?: 'auto' | 'low' | 'high' } = {
        type: 'image',
        source: { type: 'url', url: part.image_url.url },
      }
      if (part.image_url.detail !== undefined) image.detail = part.image_url.detail
      return image
    }
    case 'file': {
      const { file_data: data, file_id: fileId, filename } = part.file
      const field = `content.${partIndex}.file`
      if ((data === undefined) === (fileId === undefined))
        throw new InvalidMessagesError(index, field, 'a file part needs exactly one of file_data and file_id')
      if (data !== undefined && !data.startsWith('data:'))
        throw new InvalidMessagesError(index, `${field}.file_data`, 'file_data must be a data: URL (data:<media type>;base64,<bytes>)')
      const file: { type: 'file'; source: MediaSource; filename?: string } = {
        type: 'file',
        source: data !== undefined ? { type: 'url', url: data } : { type: 'provider-file', fileId: fileId as string },
      }
      if (filename !== undefined) file.filename = filename
      return file
    }
  }
}
