import type { JsonValue, ToolCallPayload } from './entry'
import { entryLimits, jsonTextNestingExceeds } from './json-data'

// A tool call's arguments as the JSON text a provider sent. `JSON.parse` then `JSON.stringify`
// changes some texts (spacing, `1.0`, `1e2`, `-0`, escapes, a repeated key, integers beyond 2^53),
// so a call keeps the text it came with (`ToolCallPayload.argumentsText`) and goes out with it.

/** Whether an integer written as `digits` would come back as other text once parsed (beyond 2^53, the nearest double prints otherwise). */
function changedByParse(digits: string): boolean {
  const value = Number(digits)
  return !Number.isSafeInteger(value) && JSON.stringify(value) !== digits
}

/**
 * JSON text with every integer `JSON.parse` would change (beyond 2^53: an order id
 * 12345678901234567890 becomes 12345678901234567000) put in quotes, so it is kept digit for digit
 * as a string; and those integers. One pass over the text, strings skipped with their escapes.
 */
export function quoteUnsafeIntegers(text: string): { readonly text: string; readonly integers: readonly string[] } {
  const integers: string[] = []
  let out = ''
  let last = 0
  for (let position = 0; position < text.length; ) {
    const character = text[position] as string
    if (character === '"') {
      position++
      while (position < text.length && text[position] !== '"') position += text[position] === '\\' ? 2 : 1
      position++
      continue
    }
    if (character !== '-' && (character < '0' || character > '9')) {
      position++
      continue
    }
    const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(position, position + 400))
    const number = match?.[0] ?? character
    if (match !== null && match[1] === undefined && match[2] === undefined && changedByParse(number)) {
      integers.push(number)
      out += `${text.slice(last, position)}"${number}"`
      last = position + number.length
    }
    position += number.length
  }
  return { text: integers.length === 0 ? text : out + text.slice(last), integers }
}

/**
 * The value of arguments text, integers beyond 2^53 read as their digits (strings). Throws a
 * `SyntaxError` for text that is not JSON, and a `RangeError` past `entryLimits.maxDepth` (checked
 * on the text, before anything is built).
 */
export function parseArgumentsText(text: string, reviver?: (key: string, value: unknown) => unknown): JsonValue {
  if (jsonTextNestingExceeds(text, entryLimits.maxDepth)) throw new RangeError(`arguments nested deeper than the ${entryLimits.maxDepth}-level limit (entryLimits.maxDepth)`)
  return JSON.parse(quoteUnsafeIntegers(text).text, reviver) as JsonValue
}

/** Whether `payload.argumentsText` (when there is one) says exactly `payload.arguments`. */
export function argumentsTextMatches(payload: ToolCallPayload): boolean {
  if (payload.argumentsText === undefined) return true
  try {
    return JSON.stringify(parseArgumentsText(payload.argumentsText)) === JSON.stringify(payload.arguments)
  } catch {
    return false
  }
}

/** The text to keep beside parsed arguments: `undefined` when `JSON.stringify` gives the text back as it was. */
export function keptArgumentsText(text: string, parsed: JsonValue): string | undefined {
  return JSON.stringify(parsed) === text ? undefined : text
}
