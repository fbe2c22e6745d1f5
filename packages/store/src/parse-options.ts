import { problemIssue, read, type Reader } from '@threadlens/core/internal'
import { InvalidStoreOptionsError } from './errors'

/** Checks public options with their reader; throws `InvalidStoreOptionsError` naming the first bad option. */
export function parseOptions<T>(reader: Reader<T>, value: unknown, what: string): T {
  const result = read(reader, value)
  if (result.ok) return result.value
  throw new InvalidStoreOptionsError(what, [problemIssue(result.problem)])
}

/** The checked copy of a stored value, or `undefined` when it does not pass (a row another version or a hand edit wrote). */
export function readIfValid<T>(reader: Reader<T>, value: unknown): T | undefined {
  const result = read(reader, value)
  return result.ok ? result.value : undefined
}
