import type { EntryInput, JsonObject, JsonValue } from '../entries/entry'
import { parseEntryInput } from '../entries/entry-schema'
import { entryLimits, jsonTextNestingExceeds } from '../entries/json-data'
import { InvalidEntryError, InvalidMessagesError } from '../errors/threadlens-error'
import { issuePath } from '../validation/issues'
import type { Problem } from '../validation/readers'

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

export function parseArguments(text: string, index: number, field: string): JsonObject {
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
