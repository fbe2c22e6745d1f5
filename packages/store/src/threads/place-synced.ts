import { InvalidEntryError, type Entry, type EntryInput, type TokenCounter } from '@threadlens/core'
import { checkAppendRules, emptyThreadFacts, foldThreadFacts, threadId as toThreadId, type ThreadId } from '@threadlens/core/internal'
import type { ThreadRow } from '../rows'
import { StorageError, ThreadFullError } from '../errors'
import type { ImportLimits } from '../transfer/import-limits'
import { appendedRow } from './appended-row'
import { buildEntry, prepareEntries, type PreparedEntry } from './prepare-entries'
import type { PlacementPlan, ThreadBackend } from './thread-backend'
import { checkThreadLimits, exportedBytes } from './thread-limits'
import type { PlacedEntries, SyncedEntry } from './thread-store'

/** What placing needs from the store's resolved options. */
interface PlaceSettings {
  readyCounters(): readonly TokenCounter[]
  readonly now: () => number
  readonly createId: () => string
  readonly importLimits: ImportLimits
}

/** An error about `entries[offset]` of a placement, naming it. */
function syncedError(error: unknown, offset: number, total: number): unknown {
  if (!InvalidEntryError.isInstance(error)) return error
  return new InvalidEntryError(error.field, `${error.rule} (synced entry ${offset} of ${total}; nothing was placed)`, { cause: error })
}

/** A synced entry as an input: id and time required and kept; `threadId` and `seq` dropped. */
function syncedInput(raw: unknown, offset: number, total: number): unknown {
  // Anything that is not a plain object is left to the entry reader, which says what is wrong with it.
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw
  let input: Record<string, unknown>
  try {
    const { threadId: _threadId, seq: _seq, ...rest } = raw as Record<string, unknown>
    input = rest
  } catch (error) {
    throw syncedError(new InvalidEntryError('', `the entry cannot be read: ${String(error)}`), offset, total)
  }
  if (typeof input['id'] !== 'string')
    throw syncedError(new InvalidEntryError('id', 'a synced entry keeps the id it was stored with: id is required'), offset, total)
  if (input['createdAt'] === undefined)
    throw syncedError(new InvalidEntryError('createdAt', 'a synced entry keeps the time it was stored with: createdAt is required'), offset, total)
  return input
}

/**
 * Validates synced entries as an append validates its inputs (the same reader and ref rules) and
 * counts their tokens with the store's counters (counts they carry are dropped): outside any
 * transaction. Throws `InvalidEntryError` naming the entry, or `ThreadFullError` for more entries
 * than a thread may hold.
 */
export function prepareSynced(threadId: string, entries: readonly unknown[], settings: PlaceSettings): PreparedEntry[] {
  if (!Array.isArray(entries)) throw new InvalidEntryError('', 'placeSynced takes an array of entries')
  if (entries.length > settings.importLimits.maxEntries) throw new ThreadFullError(threadId, 'entries', settings.importLimits.maxEntries)
  const inputs = entries.map((raw, offset) => syncedInput(raw, offset, entries.length))
  return prepareEntries(inputs, {
    counters: settings.readyCounters(),
    now: settings.now(),
    createId: settings.createId,
    dropGivenTokens: true,
    describeError: (error, offset) => syncedError(error, offset, entries.length),
  })
}

/** One entry of the thread after `keep`, once placed: a stored one (moved or not) or a new one; `offset` in `entries` when given there. */
type Placed = { readonly stored: Entry; readonly offset?: number } | { readonly prepared: PreparedEntry; readonly offset: number }

/**
 * Where everything goes: the thread's first `keep` entries, then `prepared` (those stored after
 * `keep` moved up, those among the first `keep` skipped), then the rest of the stored entries.
 * Checks the new order with the append rules (`checkAppendRules`, as `Thread.appendMany`), entry
 * by entry from `keep`, and the row against the limits. Pure: it runs inside the write.
 */
// long: one pass that sorts, checks and numbers the placed entries; split, its steps would pass the same five sets around.
export function planPlacement(
  threadId: ThreadId,
  row: ThreadRow,
  stored: readonly Entry[],
  keep: number,
  prepared: readonly PreparedEntry[],
  time: number,
  limits: ImportLimits,
): PlacementPlan {
  if (keep > stored.length) throw new InvalidEntryError('keep', `keep must be 0..${stored.length} (the thread's entry count), got ${keep}`)
  const tail = stored.slice(keep)
  const prefixIds = new Set(stored.slice(0, keep).map((entry) => entry.id))
  const tailById = new Map(tail.map((entry) => [entry.id as string, entry]))
  const given = new Set<string>()
  const placed: Placed[] = []
  prepared.forEach((each, offset) => {
    if (given.has(each.id)) throw syncedError(new InvalidEntryError('id', `id "${each.id}" is given twice`), offset, prepared.length)
    given.add(each.id)
    if (prefixIds.has(each.id)) return
    const storedEntry = tailById.get(each.id)
    placed.push(storedEntry === undefined ? { prepared: each, offset } : { stored: storedEntry, offset })
  })
  for (const entry of tail) if (!given.has(entry.id)) placed.push({ stored: entry })

  const calls = new Set<string>()
  const results = new Set<string>()
  const track = (input: EntryInput): void => {
    const toolCallId = input.refs?.toolCallId
    if (toolCallId !== undefined && input.kind === 'tool_call') calls.add(toolCallId)
    if (toolCallId !== undefined && input.kind === 'tool_result') results.add(toolCallId)
  }
  for (const entry of stored.slice(0, keep)) track(entry)
  const entries: Entry[] = []
  const added: Entry[] = []
  let moved = 0
  placed.forEach((item, position) => {
    const seq = keep + position
    const input: EntryInput = 'stored' in item ? item.stored : item.prepared.input
    try {
      // Stored entries keep tool names from before the name rule, as an import of them does.
      checkAppendRules(input, { seq, hasCall: (id) => calls.has(id), hasResult: (id) => results.has(id), storedToolNames: 'stored' in item })
    } catch (error) {
      if (item.offset !== undefined) throw syncedError(error, item.offset, prepared.length)
      if (!InvalidEntryError.isInstance(error) || !('stored' in item)) throw error
      throw new InvalidEntryError(
        error.field,
        `${error.rule} (stored entry "${item.stored.id}", at seq ${seq} after the synced entries; nothing was placed)`,
        { cause: error },
      )
    }
    track(input)
    if ('prepared' in item) {
      const { id, createdAt, meta } = item.prepared
      const entry = buildEntry(threadId, seq, item.prepared.input, id, createdAt, meta)
      added.push(entry)
      entries.push(entry)
      return
    }
    if (item.stored.seq === seq) {
      entries.push(item.stored)
      return
    }
    if (item.stored.meta?.unreadable !== undefined) {
      throw new StorageError(
        'invalid-data',
        'placeSynced',
        `Entry ${item.stored.seq} of thread "${threadId}" is unreadable in storage and cannot be moved; export what is readable and report it.`,
      )
    }
    moved++
    entries.push({ ...item.stored, seq })
  })

  let changed = 0
  while (changed < tail.length && entries[changed] === tail[changed]) changed++
  const next = moved === 0 ? appendedRow(row, added, time) : rebasedRow(row, stored, keep, entries, time)
  checkThreadLimits(next, limits)
  return { row: next, fromSeq: keep, changedFrom: keep + changed, entries, added, moved }
}

/** The row after stored entries moved: counts, facts and bytes worked out again, and one rebase more. */
function rebasedRow(row: ThreadRow, stored: readonly Entry[], keep: number, entries: readonly Entry[], time: number): ThreadRow {
  const lastSeq = keep + entries.length - 1
  return {
    ...row,
    lastSeq,
    entryCount: lastSeq + 1,
    updatedAt: Math.max(row.updatedAt, time),
    facts: foldThreadFacts(foldThreadFacts(emptyThreadFacts, stored.slice(0, keep)), entries),
    // Rows from before bytes were kept start from 0: their size counts what is written from now on.
    bytes: Math.max(0, row.bytes - exportedBytes(stored.slice(keep))) + exportedBytes(entries),
    rebases: row.rebases + 1,
    rebaseFromSeq: keep,
  }
}

/** `ThreadStore.placeSynced`: validated and counted first, then placed in one write. */
export async function placeSynced(
  backend: ThreadBackend,
  settings: PlaceSettings,
  onAppended: (threadId: ThreadId, entries: readonly Entry[]) => void,
  rawThreadId: string,
  keep: number,
  synced: readonly SyncedEntry[],
): Promise<PlacedEntries> {
  backend.assertWorking('placeSynced')
  if (!Number.isSafeInteger(keep) || keep < 0)
    throw new InvalidEntryError('keep', `keep must be a whole number from 0 to the thread's entry count, got ${String(keep)}`)
  const threadId = toThreadId(rawThreadId)
  const prepared = prepareSynced(threadId, synced, settings)
  const time = settings.now()
  const placement = await backend.place(
    threadId,
    'placeSynced',
    time,
    (row, stored) => planPlacement(threadId, row, stored, keep, prepared, time, settings.importLimits),
    (committed) => onAppended(threadId, committed),
  )
  // An append at the end reaches this tab's subscribers as every append does (each entry once).
  if (placement.moved === 0) onAppended(threadId, placement.added)
  return { added: placement.added, moved: placement.moved, entries: placement.entries }
}
