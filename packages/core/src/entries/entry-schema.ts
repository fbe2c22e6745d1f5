import type { Entry, EntryInput, JsonValue } from './entry'
import { InvalidEntryError } from '../errors/threadlens-error'
import { utf8Length } from '../utils/utf8-length'
import { entryLimits, readJsonData } from './json-data'
import { isRecord, read, type Reader } from '../validation/readers'
import { issuePath } from '../validation/issues'
import { entryInputReader, entryReader } from './entry-readers'

/**
 * The rules every entry obeys before its schema is even looked at: plain JSON data all through
 * (no cycles, functions, class instances, …; see `readJsonData`), at most `entryLimits.maxDepth`
 * levels deep counted from the entry itself, at most `entryLimits.maxEntryBytes` of JSON (see
 * `entryBytes`). Returns a clean copy; throws `InvalidEntryError` naming the path and the rule.
 */
export function readEntryData(input: unknown): unknown {
  // The default limits are the entry's: `entryLimits.maxDepth` and `maxEntryBytes`.
  const result = readJsonData(input)
  if (!result.ok) throw new InvalidEntryError(issuePath(result.problem.path), result.problem.rule)
  if (!isRecord(result.value)) throw new InvalidEntryError('', 'an entry is an object with kind and payload')
  const bytes = entryBytes(result.value as Record<string, JsonValue>)
  if (bytes > entryLimits.maxEntryBytes) {
    throw new InvalidEntryError(
      'payload',
      `the entry is ${bytes} bytes of JSON, over the ${entryLimits.maxEntryBytes}-byte limit (entryLimits.maxEntryBytes): shorten it, or truncate the tool output first`,
    )
  }
  return result.value
}

/**
 * An entry's size (exact when near the limit; below it, a lower bound that cannot pass the limit): the UTF-8 bytes of its JSON without `id`, `threadId`, `seq`, `createdAt`,
 * `meta.tokens` and empty `refs`/`meta`, plus `entryLimits.reservedBytes` for those (bounded) fields. The same number for an
 * input and for the entry stored from it, so what append accepts, import accepts.
 */
function entryBytes(entry: Record<string, JsonValue>): number {
  const { id: _id, threadId: _threadId, seq: _seq, createdAt: _createdAt, refs, meta, ...rest } = entry
  const measured: Record<string, JsonValue> = rest
  // An empty `refs` or `meta` (the store writes `refs: {}`) counts as absent.
  if (isRecord(refs) ? Object.keys(refs).length > 0 : refs !== undefined) measured['refs'] = refs as JsonValue
  if (isRecord(meta)) {
    const { tokens: _tokens, ...restMeta } = meta
    if (Object.keys(restMeta).length > 0) measured['meta'] = restMeta
  } else if (meta !== undefined) measured['meta'] = meta
  const text = JSON.stringify(measured)
  // Each UTF-16 unit is at most three UTF-8 bytes: far from the limit, the length alone decides.
  return (text.length * 3 + entryLimits.reservedBytes <= entryLimits.maxEntryBytes ? text.length : utf8Length(text)) + entryLimits.reservedBytes
}

function readOrThrow<T>(reader: Reader<T>, input: unknown): T {
  const result = read(reader, readEntryData(input))
  if (!result.ok) throw new InvalidEntryError(issuePath(result.problem.path), result.problem.rule)
  return result.value
}

/** Validates an entry input and applies the per-kind ref rules; throws `InvalidEntryError`. */
export function parseEntryInput(input: unknown): EntryInput {
  const entry = readOrThrow(entryInputReader, input)
  if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && entry.refs?.toolCallId === undefined) {
    throw new InvalidEntryError('refs.toolCallId', `a ${entry.kind} needs refs.toolCallId to pair the call with its result`)
  }
  return entry
}

/** Validates a complete stored entry; throws `InvalidEntryError` naming the field. */
export function parseEntry(input: unknown): Entry {
  return readOrThrow(entryReader, input)
}
