import type { ToolCallPayload } from './entry'

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
 * as a string; and those integers. One pass: strings (with their escapes) match whole and stay.
 */
export function quoteUnsafeIntegers(text: string): { readonly text: string; readonly integers: readonly string[] } {
  const integers: string[] = []
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token[0] === '"' || /[.eE]/.test(token) || !changedByParse(token)) return token
    integers.push(token)
    return `"${token}"`
  })
  return { text: quoted, integers }
}

/** Whether `payload.argumentsText` (when there is one) says exactly `payload.arguments`. */
export function argumentsTextMatches(payload: ToolCallPayload): boolean {
  if (payload.argumentsText === undefined) return true
  try {
    // JSON.parse does not recurse (deep text costs no stack); stringify might, and then it is no match.
    return JSON.stringify(JSON.parse(quoteUnsafeIntegers(payload.argumentsText).text)) === JSON.stringify(payload.arguments)
  } catch {
    return false
  }
}
