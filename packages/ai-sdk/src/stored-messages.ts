import type { Entry, EntryInput } from '@threadlens/core'
import type { UIMessage } from 'ai'
import { entriesToUIMessages, uiMessageIdOf, uiMessageToEntryInputs, type UIMessageEntriesOptions } from './ui-message-entries'

// The messages a thread holds, and how a message the app saves relates to its stored copy.

interface StoredMessage {
  readonly message: UIMessage
  readonly firstSeq: number
}

/** The UI messages stored in `entries` (newest copy of each), with the seq of each one's first entry. */
export function storedMessages(entries: readonly Entry[]): Map<string, StoredMessage> {
  const firstSeq = new Map<string, number>()
  for (const entry of entries) {
    const id = uiMessageIdOf(entry) ?? entry.id
    if (!firstSeq.has(id)) firstSeq.set(id, entry.seq)
  }
  const result = new Map<string, StoredMessage>()
  for (const message of entriesToUIMessages(entries)) result.set(message.id, { message, firstSeq: firstSeq.get(message.id) ?? 0 })
  return result
}

function modelKey(input: EntryInput): string {
  return JSON.stringify([input.kind, input.payload, input.refs ?? {}])
}

/** A value's JSON text, for comparing stored and given messages. */
export function json(value: unknown): string {
  return JSON.stringify(value)
}

/**
 * How `next` relates to the stored `previous` copy of the same message: the same, grown (its entries
 * start with the stored ones: append the rest), or replaced.
 */
export function compare(
  previous: UIMessage,
  next: UIMessage,
  options: UIMessageEntriesOptions,
): { kind: 'same' } | { kind: 'grown'; inputs: EntryInput[] } | { kind: 'replaced' } {
  if (json(previous) === json(JSON.parse(json(next)))) return { kind: 'same' }
  const before = uiMessageToEntryInputs(previous, options)
  const after = uiMessageToEntryInputs(next, options)
  if (before.length > after.length || before.some((input, index) => modelKey(input) !== modelKey(after[index] as EntryInput)))
    return { kind: 'replaced' }
  // Nothing the model sees changed (e.g. an approval answered, its result not in yet): nothing to
  // append; the message is stored again when its result arrives.
  if (after.length === before.length) return { kind: 'same' }
  const added = after.slice(before.length)
  const [first, ...rest] = added
  // The first new entry carries the whole grown message (the newest copy wins on load).
  const anchor = after[0]
  return { kind: 'grown', inputs: [{ ...(first as EntryInput), meta: { ...first?.meta, app: anchor?.meta?.app ?? {} } } as EntryInput, ...rest] }
}

/**
 * The seq where the saved messages leave the stored ones, if they do: the first stored message the
 * save replaced, or one this tab knew (`known`) that the save no longer holds. A branch starts there.
 */
export function divergence(
  stored: ReadonlyMap<string, StoredMessage>,
  incoming: ReadonlyMap<string, UIMessage>,
  known: ReadonlySet<string>,
  options: UIMessageEntriesOptions,
): number | undefined {
  for (const [id, { message, firstSeq }] of stored) {
    const next = incoming.get(id)
    if (next === undefined ? known.has(id) : compare(message, next, options).kind === 'replaced') return firstSeq
  }
  return undefined
}

/** What saving `messages` over the stored ones appends: new messages whole, grown ones their new entries. */
export function inputsToAppend(
  messages: readonly UIMessage[],
  stored: ReadonlyMap<string, StoredMessage>,
  options: UIMessageEntriesOptions,
): EntryInput[] {
  const inputs: EntryInput[] = []
  for (const message of messages) {
    const previous = stored.get(message.id)
    if (previous === undefined) {
      inputs.push(...uiMessageToEntryInputs(message, options))
      continue
    }
    const relation = compare(previous.message, message, options)
    // A replaced message here was never seen by this tab (another tab's): the stored copy stays.
    if (relation.kind === 'grown') inputs.push(...relation.inputs)
  }
  return inputs
}
