import { array, byKey, fail, looseObject, oneOf, optional, read, string, union, type At, type Reader } from '../validation/readers'

// The shape a Chat Completions `messages` array must have to be imported; `fromOpenAIChat` reads
// it with these. Unknown fields (`annotations`, …) are left out: exports from real apps carry them.

export interface ImportedTextPart {
  readonly type: 'text'
  readonly text: string
}
export interface ImportedImagePart {
  readonly type: 'image_url'
  readonly image_url: { readonly url: string; readonly detail?: 'auto' | 'low' | 'high' }
}
export interface ImportedFilePart {
  readonly type: 'file'
  readonly file: { readonly file_data?: string; readonly file_id?: string; readonly filename?: string }
}
export type ImportedPart = ImportedTextPart | ImportedImagePart | ImportedFilePart
/** An assistant's refusal given as a content part. */
export interface ImportedRefusalPart {
  readonly type: 'refusal'
  readonly refusal: string
}

export interface ImportedToolCall {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string; readonly arguments: string }
}

type TextContent = string | readonly ImportedTextPart[]
export type ParsedMessage =
  | { readonly role: 'system' | 'developer'; readonly content: TextContent; readonly name?: string }
  | { readonly role: 'user'; readonly content: string | readonly ImportedPart[]; readonly name?: string }
  | {
      readonly role: 'assistant'
      readonly content?: string | readonly (ImportedTextPart | ImportedRefusalPart)[] | null
      readonly name?: string
      readonly refusal?: string | null
      readonly tool_calls?: readonly ImportedToolCall[] | null
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: TextContent }

const supportedRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const

const textPart = looseObject<ImportedTextPart>({ type: oneOf(['text']), text: string() })
const refusalPart = looseObject<ImportedRefusalPart>({ type: oneOf(['refusal']), refusal: string() })
const imagePart = looseObject<ImportedImagePart>({
  type: oneOf(['image_url']),
  image_url: looseObject<ImportedImagePart['image_url']>({ url: string({ min: 1 }), detail: optional(oneOf(['auto', 'low', 'high']), 'loose') }),
})
const filePart = looseObject<ImportedFilePart>({
  type: oneOf(['file']),
  file: looseObject<ImportedFilePart['file']>({
    file_data: optional(string(), 'loose'),
    file_id: optional(string(), 'loose'),
    filename: optional(string(), 'loose'),
  }),
})

// What each role's content parts may be; anything else is refused with the part's type named.
function partsOf<T>(part: Reader<T>, allowed: readonly string[]): Reader<T[]> {
  const named = allowed.map((type) => `"${type}"`).join(', ')
  return array((value, at) => {
    const result = read(part, value)
    if (result.ok) return result.value
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
    if (typeof type === 'string' && allowed.includes(type)) return fail(at, result.problem.rule)
    if (type === 'input_audio') return fail(at, 'audio parts (input_audio) are not supported: transcribe the audio to text first')
    return fail(at, `content part type ${JSON.stringify(type)} is not supported here; this role takes ${named} parts`)
  })
}

/** A string, or an array of parts (whose own problems are reported); anything else gets `rule`. */
function contentOf<T>(parts: Reader<T[]>, rule: string): Reader<string | T[]> {
  return (value, at) => (typeof value === 'string' ? value : Array.isArray(value) ? parts(value, at) : fail(at, rule))
}

const textContent = contentOf(partsOf(textPart, ['text']), 'content must be a string or an array of { type: "text", text } parts')
const userContent = contentOf(
  partsOf(union<ImportedPart>([textPart, imagePart, filePart]), ['text', 'image_url', 'file']),
  'content must be a string or an array of text, image_url and file parts',
)
const assistantContent = contentOf(
  partsOf(union<ImportedTextPart | ImportedRefusalPart>([textPart, refusalPart]), ['text', 'refusal']),
  'content must be a string or an array of text and refusal parts',
)
const speaker = optional(string(), 'loose')

function nullish<T>(reader: Reader<T>) {
  return optional<T | null>((value, at) => (value === null ? null : reader(value, at)), 'loose')
}

const functionType: Reader<'function'> = (value, at) =>
  value === 'function' ? value : fail(at, `tool call type ${JSON.stringify(value)} is not supported; only "function" calls can be imported`)

const toolCall = looseObject<ImportedToolCall>({
  id: string({ min: 1 }),
  type: functionType,
  function: looseObject<ImportedToolCall['function']>({ name: string({ min: 1 }), arguments: string() }),
})

type Of<R extends ParsedMessage['role']> = Extract<ParsedMessage, { role: R }>

const systemMessage = looseObject<Of<'system' | 'developer'>>({ role: oneOf(['system', 'developer']), content: textContent, name: speaker })

const messageByRole = byKey<ParsedMessage>('role', {
  system: systemMessage,
  developer: systemMessage,
  user: looseObject<Of<'user'>>({ role: oneOf(['user']), content: userContent, name: speaker }),
  assistant: looseObject<Of<'assistant'>>({
    role: oneOf(['assistant']),
    content: nullish(assistantContent),
    name: speaker,
    refusal: nullish(string()),
    tool_calls: nullish(array(toolCall)),
  }),
  tool: looseObject<Of<'tool'>>({ role: oneOf(['tool']), tool_call_id: string({ min: 1 }), content: textContent }),
})

const message: Reader<ParsedMessage> = (value, at: At | null) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(at, 'expected a message object')
  const role = (value as { role?: unknown }).role
  if (typeof role !== 'string' || !(supportedRoles as readonly string[]).includes(role)) {
    return fail({ parent: at, key: 'role' }, `role must be one of ${supportedRoles.map((each) => `"${each}"`).join(', ')}`)
  }
  return messageByRole(value, at)
}

const messages = array(message)

/** A Chat Completions `messages` array. */
export const openAIChatMessagesReader: Reader<ParsedMessage[]> = (value, at) =>
  Array.isArray(value) ? messages(value, at) : fail(at, 'expected an array of messages')
