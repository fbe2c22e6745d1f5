import { ImportValidationError } from '../errors'

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * `JSON.parse` that refuses keys able to pollute prototypes anywhere in the value. (JSON.parse
 * itself defines `__proto__` as a plain own key; code that later copies or merges the object
 * would not, so such keys are refused at the door.)
 */
export function parseJsonSafely(text: string, line: number | undefined): unknown {
  try {
    return JSON.parse(text, (key: string, value: unknown) => {
      if (forbiddenKeys.has(key)) throw new ImportValidationError(line, key, `the key "${key}" is not allowed anywhere in an import`)
      return value
    })
  } catch (error) {
    if (error instanceof ImportValidationError) throw error
    throw new ImportValidationError(line, '', `not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error })
  }
}

/** UTF-8 length of a string without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && position + 1 < text.length) {
      const next = text.charCodeAt(position + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        position++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** Whether `text` is over `maxBytes` of UTF-8, deciding from its length alone when it can. */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  // Each UTF-16 unit is at least one UTF-8 byte and at most three.
  if (text.length > maxBytes) return true
  if (text.length * 3 <= maxBytes) return false
  return utf8Length(text) > maxBytes
}
