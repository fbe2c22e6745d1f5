import { InvalidIdError } from '../errors/threadlens-error'

declare const threadIdBrand: unique symbol
declare const entryIdBrand: unique symbol

/** A thread's id. Made only by `threadId()` or by parsing with `threadIdSchema`. */
export type ThreadId = string & { readonly [threadIdBrand]: true }
/** An entry's id. Made only by `entryId()` or by parsing with `entryIdSchema`. */
export type EntryId = string & { readonly [entryIdBrand]: true }

/** What a thread or entry id is: 1-128 characters of A-Z a-z 0-9 _ . : - */
export const idPattern = /^[A-Za-z0-9_.:-]{1,128}$/

function checkId(kind: 'thread' | 'entry', value: unknown): void {
  // Ids come from callers of the public API: anything may arrive here, not only strings.
  if (typeof value !== 'string' || !idPattern.test(value)) throw new InvalidIdError(kind, value)
}

export function threadId(value: string): ThreadId {
  checkId('thread', value)
  return value as ThreadId
}

export function entryId(value: string): EntryId {
  checkId('entry', value)
  return value as EntryId
}

/** A random id; `crypto.randomUUID` exists in every browser and in Node 19+. */
export function randomId(): string {
  return globalThis.crypto.randomUUID()
}
