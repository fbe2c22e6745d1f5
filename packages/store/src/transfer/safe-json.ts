import { jsonTextNestingExceeds, utf8Length } from '@threadlens/core/internal'
import { ImportValidationError } from '../errors'

export { jsonTextNestingExceeds as nestingExceeds, utf8Length }

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
    if (ImportValidationError.isInstance(error)) throw error
    throw new ImportValidationError(line, '', `not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error })
  }
}

/** Whether `text` is over `maxBytes` of UTF-8, deciding from its length alone when it can. */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  // Each UTF-16 unit is at least one UTF-8 byte and at most three.
  if (text.length > maxBytes) return true
  if (text.length * 3 <= maxBytes) return false
  return utf8Length(text) > maxBytes
}
