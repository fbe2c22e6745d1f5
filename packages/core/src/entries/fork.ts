import type { Entry } from './entry'
import { InvalidEntryError } from '../errors/threadlens-error'
import { entryId, type ThreadId } from './ids'

/**
 * The one fork rule, for an in-memory `Thread` (core's `forkThread`) and a stored one (the store's
 * `fork`): a fork copies the parent's entries `0..atSeq`, so `atSeq` must be a seq the parent holds.
 */
export function checkForkPoint(atSeq: number, lastSeq: number): void {
  if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > lastSeq)
    throw new InvalidEntryError('atSeq', `atSeq must be an existing seq (0..${lastSeq}), got ${atSeq}`)
}

/** The fork's copies of the parent's entries: seq, payload, refs and createdAt kept; new entry ids; the child's thread id. */
export function forkCopies(entries: readonly Entry[], childId: ThreadId, createId: () => string): Entry[] {
  return entries.map((entry) => ({ ...entry, id: entryId(createId()), threadId: childId }) as Entry)
}
