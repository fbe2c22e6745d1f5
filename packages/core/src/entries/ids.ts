declare const threadIdBrand: unique symbol
declare const entryIdBrand: unique symbol

/** A thread's id. Made only by `threadId()` or by parsing with `threadIdSchema`. */
export type ThreadId = string & { readonly [threadIdBrand]: true }
/** An entry's id. Made only by `entryId()` or by parsing with `entryIdSchema`. */
export type EntryId = string & { readonly [entryIdBrand]: true }

const idPattern = /^[A-Za-z0-9_.:-]{1,128}$/

function checkId(kind: string, value: string): void {
  if (!idPattern.test(value)) {
    throw new TypeError(`${kind} must be 1-128 characters of A-Z a-z 0-9 _ . : - (got ${JSON.stringify(value.slice(0, 40))})`)
  }
}

export function threadId(value: string): ThreadId {
  checkId('A thread id', value)
  return value as ThreadId
}

export function entryId(value: string): EntryId {
  checkId('An entry id', value)
  return value as EntryId
}

export const idPatternSource = idPattern.source

/** A random id; `crypto.randomUUID` exists in every browser and in Node 19+. */
export function randomId(): string {
  return globalThis.crypto.randomUUID()
}
