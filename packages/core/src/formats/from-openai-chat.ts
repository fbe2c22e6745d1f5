import { z } from 'zod/mini'
import type { ContentPart, EntryInput, JsonObject, JsonValue, MessagePayload, Role } from '../entries/entry'
import { type MediaSource, PART_TEXT_SEPARATOR, partsText } from '../entries/content-parts'
import { parseEntryInput } from '../entries/entry-schema'
import { entryLimits, jsonTextNestingExceeds } from '../entries/json-data'
import { InvalidEntryError, InvalidMessagesError, InvalidToolNameError } from '../errors/threadlens-error'
import { isValidToolName } from '../entries/tool-name'
import { issuePath, safeParse } from '../validation/zod-issues'

export interface FromOpenAIChatResult {
  /** The leading system (or developer) messages joined by a blank line; `undefined` when there are none. */
  systemPrompt: string | undefined
  /** Entries to append, in order. */
  entries: EntryInput[]
}

const supportedRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const

const textPartSchema = z.object({ type: z.literal('text'), text: z.string() })
const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().check(z.minLength(1)), detail: z.optional(z.enum(['auto', 'low', 'high'])) }),
})
const filePartSchema = z.object({
  type: z.literal('file'),
  file: z.object({ file_data: z.optional(z.string()), file_id: z.optional(z.string()), filename: z.optional(z.string()) }),
})

// What each role's content parts may be; anything else is refused with the part's type named.
function partsSchema<TPart extends z.ZodMiniType>(part: TPart, allowed: string) {
  return z.array(
    z.pipe(z.unknown(), z.transform((value, context): z.output<TPart> => {
      const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
      const parsed = safeParse(part, value)
      if (parsed.success) return parsed.data as z.output<TPart>
      const known = typeof type === 'string' && allowed.split(', ').includes(`"${type}"`)
      context.issues.push({
        code: 'custom',
        input: value,
        message: known
          ? (parsed.error.issues[0]?.message ?? 'invalid part')
          : type === 'input_audio'
            ? 'audio parts (input_audio) are not supported: transcribe the audio to text first'
            : `content part type ${JSON.stringify(type)} is not supported here; this role takes ${allowed} parts`,
      })
      return z.NEVER
    })),
  )
}

const textContentSchema = z.union([z.string(), partsSchema(textPartSchema, '"text"')], {
  error: 'content must be a string or an array of { type: "text", text } parts',
})
const userContentSchema = z.union([z.string(), partsSchema(z.union([textPartSchema, imagePartSchema, filePartSchema]), '"text", "image_url", "file"')], {
  error: 'content must be a string or an array of text, image_url and file parts',
})
const contentSchema = textContentSchema
const speakerSchema = z.optional(z.string())

const toolCallSchema = z.object({
  id: z.string().check(z.minLength(1)),
  type: z.literal('function', {
    error: (issue) => `tool call type ${JSON.stringify(issue.input)} is not supported; only "function" calls can be imported`,
  }),
  function: z.object({ name: z.string().check(z.minLength(1)), arguments: z.string() }),
})

// Other unknown fields (`annotations`, …) are ignored: exports from real apps carry them.
const openAIChatMessageSchema = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content: textContentSchema, name: speakerSchema }),
    z.object({ role: z.literal('user'), content: userContentSchema, name: speakerSchema }),
    z.object({
      role: z.literal('assistant'),
      content: z.nullish(textContentSchema),
      name: speakerSchema,
      refusal: z.nullish(z.string()),
      tool_calls: z.nullish(z.array(toolCallSchema)),
    }),
    z.object({ role: z.literal('tool'), tool_call_id: z.string().check(z.minLength(1)), content: contentSchema }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `role must be one of ${supportedRoles.map((role) => `"${role}"`).join(', ')}`
        : 'expected a message object',
  },
)

const openAIChatMessagesSchema = z.array(openAIChatMessageSchema, { error: 'expected an array of messages' })

type ParsedMessage = z.infer<typeof openAIChatMessageSchema>

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

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
  const parsed = safeParse(openAIChatMessagesSchema, messages)
  if (!parsed.success) throw fromZodError(parsed.error)

  const entries: EntryInput[] = []
  const systemParts: string[] = []
  const calls = new Map<string, ImportedCall>()
  let inPrefix = true

  parsed.data.forEach((message, index) => {
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

type ImportedPart = z.infer<typeof textPartSchema> | z.infer<typeof imagePartSchema> | z.infer<typeof filePartSchema>

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

const unsupportedFields: readonly { field: string; rule: string }[] = [
  { field: 'function_call', rule: 'the legacy function_call field is not supported: give the call as tool_calls (and its answer as a tool message)' },
  { field: 'audio', rule: 'audio replies are not supported: keep their transcript as content' },
]

// Fields the import would otherwise drop without a word are refused, named.
function refuseUnsupportedFields(messages: unknown): void {
  if (!Array.isArray(messages)) return
  messages.forEach((message: unknown, index) => {
    if (typeof message !== 'object' || message === null) return
    const record = message as Record<string, unknown>
    if (record['role'] === 'function') {
      throw new InvalidMessagesError(index, 'role', 'the legacy "function" role is not supported: give results as tool messages answering tool_calls')
    }
    for (const { field, rule } of unsupportedFields) {
      if (Object.hasOwn(record, field) && record[field] !== null && record[field] !== undefined) throw new InvalidMessagesError(index, field, rule)
    }
  })
}

function parseArguments(text: string, index: number, field: string): JsonObject {
  let value: JsonValue
  // Checked on the text first: the reviver below recurses, and hostile nesting would overflow the stack.
  if (jsonTextNestingExceeds(text, entryLimits.maxDepth)) {
    throw new InvalidMessagesError(index, field, `arguments nested deeper than the ${entryLimits.maxDepth}-level limit (entryLimits.maxDepth)`)
  }
  try {
    // The reviver sees every key at every depth, including `__proto__`, which zod records drop silently.
    value = JSON.parse(text, (key: string, nested: unknown) => {
      if (forbiddenKeys.has(key)) throw new InvalidMessagesError(index, field, `key "${key}" is not allowed`)
      return nested
    }) as JsonValue
  } catch (error) {
    if (error instanceof InvalidMessagesError) throw error
    throw new InvalidMessagesError(index, field, 'arguments must be JSON text of an object', { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidMessagesError(index, field, `arguments must be a JSON object, got ${describeJson(value)}`)
  }
  return value as JsonObject
}

function describeJson(value: JsonValue): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

// The entry schema has the last word (lengths, ref rules); its errors are reported against the message's own field.
function checked(entry: EntryInput, index: number, fieldOf: (entryField: string) => string): EntryInput {
  try {
    parseEntryInput(entry)
  } catch (error) {
    if (!(error instanceof InvalidEntryError)) throw error
    throw new InvalidMessagesError(index, fieldOf(error.field), error.message, { cause: error })
  }
  return entry
}

function messageField(entryField: string): string {
  if (entryField.startsWith('payload.parts')) return entryField.replace('payload.parts', 'content')
  for (const field of ['content', 'name', 'refusal']) if (entryField.startsWith(`payload.${field}`)) return field
  return ''
}

function toolCallField(entryField: string, callIndex: number): string {
  if (entryField.startsWith('refs.toolCallId')) return `tool_calls.${callIndex}.id`
  if (entryField.startsWith('payload.name')) return `tool_calls.${callIndex}.function.name`
  return `tool_calls.${callIndex}.function.arguments`
}

function toolResultField(entryField: string): string {
  return entryField.startsWith('payload.result') ? 'content' : 'tool_call_id'
}

function fromZodError(error: z.core.$ZodError): InvalidMessagesError {
  const issue = error.issues[0]
  const { path, message } = issue === undefined ? { path: [], message: 'invalid messages' } : innermost(issue)
  const [first, ...rest] = path
  // A path that does not start at an element means the input as a whole is wrong (e.g. not an array).
  if (typeof first !== 'number') return new InvalidMessagesError(undefined, '', message, { cause: error })
  return new InvalidMessagesError(first, issuePath(rest), message, { cause: error })
}

// When only one branch of a union got past the type check (content given as parts), its issue says more than the union's.
function innermost(issue: z.core.$ZodIssue): { path: readonly PropertyKey[]; message: string } {
  if (issue.code === 'invalid_union') {
    const deeper = issue.errors
      .map((branch) => branch[0])
      .filter((first) => first !== undefined && !(first.code === 'invalid_type' && first.path.length === 0))
    const [only] = deeper
    if (only !== undefined && deeper.length === 1) {
      const inner = innermost(only)
      return { path: [...issue.path, ...inner.path], message: inner.message }
    }
  }
  return { path: issue.path, message: issue.message }
}
