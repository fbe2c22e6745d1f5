import type { EntryInput, JsonObject, JsonValue, ToolCallPayload } from '../entries/entry'
import { quoteUnsafeIntegers } from '../entries/arguments-text'
import { entryLimits, jsonTextNestingExceeds } from '../entries/json-data'
import { parseEntryInput } from '../entries/entry-schema'
import { InvalidEntryError, InvalidMessagesError } from '../errors/threadlens-error'
import { issuePath } from '../validation/issues'
import type { Problem } from '../validation/readers'
import type { ImportChange } from './from-openai-chat'

// The checks `fromOpenAIChat` makes beyond the schema, and how each failure names the message's own field.

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

const unsupportedFields: readonly { field: string; rule: string }[] = [
  { field: 'function_call', rule: 'the legacy function_call field is not supported: give the call as tool_calls (and its answer as a tool message)' },
  { field: 'audio', rule: 'audio replies are not supported: keep their transcript as content' },
]

// Fields the import would otherwise drop without a word are refused, named.
export function refuseUnsupportedFields(messages: unknown): void {
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

/**
 * A call's arguments text as the payload keeps it: the parsed object, and the text itself when
 * `JSON.stringify` would not give it back byte for byte (see `ToolCallPayload.argumentsText`).
 */
export function parseArguments(
  text: string,
  index: number,
  field: string,
  changes?: ImportChange[],
): Pick<ToolCallPayload, 'arguments' | 'argumentsText'> {
  // Recorded conversations carry `""` (a call without arguments) and `"null"`: an empty object.
  if (text.trim() === '' || text.trim() === 'null') {
    changes?.push({ index, field, kind: 'empty-arguments', from: text, to: '{}' })
    return { arguments: {} }
  }
  let value: JsonValue
  try {
    // The reviver sees every key at every depth, including `__proto__`, which zod records drop silently.
    value = parseArgumentsText(text, (key: string, nested: unknown) => {
      if (forbiddenKeys.has(key)) throw new InvalidMessagesError(index, field, `key "${key}" is not allowed`)
      return nested
    })
  } catch (error) {
    if (error instanceof InvalidMessagesError) throw error
    // Nesting is checked on the text first: the reviver recurses, and hostile nesting would overflow the stack.
    if (error instanceof RangeError) throw new InvalidMessagesError(index, field, error.message, { cause: error })
    throw new InvalidMessagesError(index, field, 'arguments must be JSON text of an object', { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidMessagesError(index, field, `arguments must be a JSON object, got ${describeJson(value)}`)
  }
  for (const digits of quoteUnsafeIntegers(text).integers)
    changes?.push({ index, field, kind: 'unsafe-integer', from: digits, to: JSON.stringify(digits) })
  const argumentsText = keptArgumentsText(text, value)
  return argumentsText === undefined ? { arguments: value as JsonObject } : { arguments: value as JsonObject, argumentsText }
}

/**
 * The value of arguments text, integers beyond 2^53 read as their digits (strings). Throws a
 * `SyntaxError` for text that is not JSON, and a `RangeError` past `entryLimits.maxDepth` (checked
 * on the text, before anything is built: a reviver recurses).
 */
export function parseArgumentsText(text: string, reviver?: (key: string, value: unknown) => unknown): JsonValue {
  if (jsonTextNestingExceeds(text, entryLimits.maxDepth))
    throw new RangeError(`arguments nested deeper than the ${entryLimits.maxDepth}-level limit (entryLimits.maxDepth)`)
  return JSON.parse(quoteUnsafeIntegers(text).text, reviver) as JsonValue
}

/** The text to keep beside parsed arguments: `undefined` when `JSON.stringify` gives the text back as it was. */
function keptArgumentsText(text: string, parsed: JsonValue): string | undefined {
  return JSON.stringify(parsed) === text ? undefined : text
}

function describeJson(value: JsonValue): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

// The entry schema has the last word (lengths, ref rules); its errors are reported against the message's own field.
export function checked(entry: EntryInput, index: number, fieldOf: (entryField: string) => string): EntryInput {
  try {
    parseEntryInput(entry)
  } catch (error) {
    if (!(error instanceof InvalidEntryError)) throw error
    throw new InvalidMessagesError(index, fieldOf(error.field), error.message, { cause: error })
  }
  return entry
}

export function messageField(entryField: string): string {
  if (entryField.startsWith('payload.parts')) return entryField.replace('payload.parts', 'content')
  for (const field of ['content', 'name', 'refusal']) if (entryField.startsWith(`payload.${field}`)) return field
  return ''
}

export function toolCallField(entryField: string, callIndex: number): string {
  if (entryField.startsWith('refs.toolCallId')) return `tool_calls.${callIndex}.id`
  if (entryField.startsWith('payload.name')) return `tool_calls.${callIndex}.function.name`
  return `tool_calls.${callIndex}.function.arguments`
}

export function toolResultField(entryField: string): string {
  return entryField.startsWith('payload.result') ? 'content' : 'tool_call_id'
}

export function fromProblem(problem: Problem): InvalidMessagesError {
  const [first, ...rest] = problem.path
  // A path that does not start at an element means the input as a whole is wrong (e.g. not an array).
  if (typeof first !== 'number') return new InvalidMessagesError(undefined, '', problem.rule)
  return new InvalidMessagesError(first, issuePath(rest), problem.rule)
}
