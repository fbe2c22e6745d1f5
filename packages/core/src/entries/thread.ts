/**
 * A `Thread` is the append-only log of one conversation in memory: `append` grows it in place and
 * tells its subscribers. A live mirror also needs versions: `extendThread` returns a newer `Thread`
 * with committed entries added and leaves the older one holding exactly what it held. Versions share
 * storage: the same frozen entry objects (each version's array of them is its own), and one index,
 * which the newer version takes over and extends by the added entries only; an older version builds
 * an index of its own again only if its index is read.
 */
import { InvalidEntryError } from '../errors/threadlens-error'
import { Subscribable } from '../utils/subscribable'
import type { Entry, EntryInput, EntryKind, EntryOf, EntryRefs } from './entry'
import { checkAppendRules } from './append-rules'
import { deepFreeze } from './deep-freeze'
import { checkForkPoint, forkCopies } from './fork'
import { parseEntryInput } from './entry-schema'
import { entryId, randomId, threadId as toThreadId, type ThreadId } from './ids'
import { createThreadIndex, indexEntry, type MutableThreadIndex, type ThreadIndex } from './thread-index'

/** Where a forked thread came from. */
export interface ForkInfo {
  readonly threadId: ThreadId
  /** The last seq of the parent that the fork copied. */
  readonly atSeq: number
}

export type ThreadEvent = { readonly type: 'entry-append'; readonly threadId: ThreadId; readonly entries: readonly Entry[] }

/** Anything the projector can read: a `Thread`, or a seq-ordered array of entries. */
export interface ThreadSource {
  readonly entries: readonly Entry[]
  readonly index: ThreadIndex
}

export interface CreateThreadOptions {
  /** Defaults to a random UUID. */
  readonly id?: string
  /** Entries to start from, seq-ordered and gapless (a stored thread, or a window of one). */
  readonly entries?: readonly Entry[]
  readonly parent?: ForkInfo
  /** Clock for `createdAt`; defaults to `Date.now`. */
  readonly now?: () => number
  /** Id source for entries; defaults to `crypto.randomUUID`. */
  readonly createId?: () => string
}

/**
 * All that a thread holds besides its id and parent, as one plain record. A `Thread` reaches its own
 * through `#state`; the functions after the class reach any thread's through `stateOf`, so that
 * extending, ingesting and forking need nothing from the class but its public face.
 */
interface ThreadState {
  readonly now: () => number
  readonly createId: () => string
  /** The thread's listeners (the `Subscribable` set itself). */
  readonly listeners: ReadonlySet<(event: ThreadEvent) => void>
  /** Seq of `entries[0]`: 0 unless the thread holds a window of a longer one. */
  firstSeq: number
  /** Appended to in place; a newer version gets a copy (`extendThread`), never this array. */
  entries: Entry[]
  /** Built on first use; `undefined` again once handed over to a newer version, then rebuilt if read. */
  index: MutableThreadIndex | undefined
}

const states = new WeakMap<Thread, ThreadState>()

function stateOf(thread: Thread): ThreadState {
  const state = states.get(thread)
  if (state === undefined) throw new TypeError('expected a Thread made by createThread or new Thread')
  return state
}

function ownIndex(state: ThreadState): MutableThreadIndex {
  return (state.index ??= createThreadIndex(state.entries))
}

function nextSeqOf(state: ThreadState): number {
  return state.firstSeq + state.entries.length
}

/** Adds an entry already checked and frozen, and indexes it. */
function push(state: ThreadState, entry: Entry): void {
  const index = ownIndex(state) // before the push: a new index is built from the entries held
  state.entries.push(entry)
  indexEntry(index, entry)
}

/** Tells the listeners about entries just added. */
function emit(state: ThreadState, threadId: ThreadId, entries: readonly Entry[]): void {
  if (entries.length === 0 || state.listeners.size === 0) return
  const event: ThreadEvent = { type: 'entry-append', threadId, entries }
  for (const listener of state.listeners) listener(event)
}

/**
 * The canonical, append-only history of one conversation, in memory.
 * Nothing here rewrites or removes an entry: summaries and context ops are appended.
 */
export class Thread extends Subscribable<(event: ThreadEvent) => void> implements ThreadSource {
  readonly id: ThreadId
  readonly parent: ForkInfo | undefined
  readonly #state: ThreadState

  constructor(options: CreateThreadOptions = {}) {
    super()
    this.id = toThreadId(options.id ?? randomId())
    this.parent = options.parent
    const initial = options.entries ?? []
    const state: ThreadState = {
      now: options.now ?? Date.now,
      createId: options.createId ?? randomId,
      listeners: this.listeners,
      firstSeq: initial[0]?.seq ?? 0,
      entries: [],
      index: undefined,
    }
    this.#state = state
    states.set(this, state)
    initial.forEach((entry, position) => {
      checkContinues(this.id, entry, state.firstSeq + position)
      push(state, entry)
    })
  }

  /** Entries in seq order. Read-only: the array grows in place as entries are appended. */
  get entries(): readonly Entry[] {
    return this.#state.entries
  }

  get index(): ThreadIndex {
    return ownIndex(this.#state)
  }

  /** Seq of the first entry held (0 unless this thread holds a window of a longer one). */
  get firstSeq(): number {
    return this.#state.firstSeq
  }

  /** The seq the next appended entry gets. */
  get nextSeq(): number {
    return nextSeqOf(this.#state)
  }

  /** Changes on every append; use it to memoise anything derived from the thread. */
  get version(): number {
    return this.nextSeq
  }

  /** Validates and appends one entry. Throws `InvalidEntryError` (naming the field) and changes nothing on bad input. */
  append(input: EntryInput): Entry {
    return this.appendMany([input])[0] as Entry
  }

  /** Appends entries all or nothing: if any is invalid, none is appended. */
  appendMany(inputs: readonly EntryInput[]): readonly Entry[] {
    if (!Array.isArray(inputs)) throw new InvalidEntryError('', 'appendMany takes an array of entries')
    const built: Entry[] = []
    const pendingCalls = new Set<string>()
    const pendingResults = new Set<string>()
    inputs.forEach((input, offset) => {
      let parsed: EntryInput
      try {
        parsed = parseEntryInput(input)
      } catch (error) {
        if (inputs.length > 1 && error instanceof InvalidEntryError) {
          throw new InvalidEntryError(error.field, `${error.rule} (input ${offset} of ${inputs.length}; nothing was appended)`, { cause: error })
        }
        throw error
      }
      const seq = this.nextSeq + offset
      this.#checkRules(parsed, seq, pendingCalls, pendingResults)
      built.push(this.#build(parsed, seq))
    })
    for (const entry of built) push(this.#state, entry)
    emit(this.#state, this.id, built)
    return built
  }

  #checkRules(input: EntryInput, seq: number, pendingCalls: Set<string>, pendingResults: Set<string>): void {
    checkAppendRules(input, {
      seq,
      hasCall: (toolCallId) => ownIndex(this.#state).callSeqByToolCallId.has(toolCallId) || pendingCalls.has(toolCallId),
      hasResult: (toolCallId) => ownIndex(this.#state).resultSeqByToolCallId.has(toolCallId) || pendingResults.has(toolCallId),
      partial: this.#state.firstSeq !== 0,
    })
    const toolCallId = input.refs?.toolCallId
    if (toolCallId === undefined) return
    if (input.kind === 'tool_call') pendingCalls.add(toolCallId)
    if (input.kind === 'tool_result') pendingResults.add(toolCallId)
  }

  #build(input: EntryInput, seq: number): Entry {
    const entry = {
      id: entryId(input.id ?? this.#state.createId()),
      threadId: this.id,
      seq,
      kind: input.kind,
      payload: input.payload,
      refs: { ...input.refs },
      createdAt: input.createdAt ?? this.#state.now(),
      ...(input.meta === undefined ? {} : { meta: input.meta }),
    }
    return deepFreeze(entry) as Entry
  }

  bySeq(seq: number): Entry | undefined {
    const { entries, firstSeq } = this.#state
    return entries[seq - firstSeq]
  }

  byKind<K extends EntryKind>(kind: K): EntryOf<K>[] {
    return this.#state.entries.filter((entry): entry is Extract<Entry, EntryOf<K>> => entry.kind === kind) as EntryOf<K>[]
  }

  byRef<R extends keyof EntryRefs>(ref: R, value: NonNullable<EntryRefs[R]>): Entry[] {
    return this.#state.entries.filter((entry) => entry.refs[ref] === value)
  }

  /** Entries with `fromSeq <= seq <= toSeq` (toSeq defaults to the last). */
  slice(fromSeq: number, toSeq: number = this.nextSeq - 1): readonly Entry[] {
    const { entries, firstSeq } = this.#state
    const start = Math.max(0, fromSeq - firstSeq)
    const end = Math.max(start, toSeq - firstSeq + 1)
    return entries.slice(start, end)
  }
}

/**
 * A new version of `thread` with committed `entries` (the next seqs, in order) added, as a live
 * mirror needs on every commit: the old version is left as it was, and the new one extends the
 * old one's index with the new entries instead of indexing the whole thread again.
 * Throws `InvalidEntryError` for an entry of another thread or a gap.
 */
export function extendThread(thread: Thread, entries: readonly Entry[]): Thread {
  const older = stateOf(thread)
  entries.forEach((entry, offset) => checkContinues(thread.id, entry, nextSeqOf(older) + offset))
  const parent = thread.parent === undefined ? {} : { parent: thread.parent }
  const next = new Thread({ id: thread.id, now: older.now, createId: older.createId, ...parent })
  const newer = stateOf(next)
  // The older version keeps its entries (a render holding it stays consistent) and gives its index
  // away: extending indexes the new entries only (the array copy is of references), and the rare
  // reader of an old version's index pays for a rebuild of that version alone.
  newer.firstSeq = older.firstSeq
  newer.entries = older.entries.concat(entries)
  newer.index = ownIndex(older)
  older.index = undefined
  for (const entry of entries) indexEntry(newer.index, entry)
  return next
}

/**
 * Adds entries that were already committed elsewhere (a store, another tab) to `thread`, keeping it
 * a live mirror; returns the ones added and tells the thread's listeners about them. Entries it
 * already holds are skipped; a gap or a different thread is refused (`InvalidEntryError`).
 */
export function ingestEntries(thread: Thread, entries: readonly Entry[]): readonly Entry[] {
  const state = stateOf(thread)
  const added: Entry[] = []
  for (const entry of entries) {
    if (entry.seq < thread.nextSeq && entry.threadId === thread.id) {
      if (thread.bySeq(entry.seq)?.id !== entry.id && entry.seq >= thread.firstSeq) {
        throw new InvalidEntryError('seq', `seq ${entry.seq} is already taken by another entry: the mirror is out of step; load the thread again`)
      }
      continue
    }
    checkContinues(thread.id, entry, thread.nextSeq, ': load the thread again')
    const frozen = deepFreeze(entry)
    push(state, frozen)
    added.push(frozen)
  }
  emit(state, thread.id, added)
  return added
}

/**
 * A new thread holding copies of `thread`'s entries `0..atSeq`, under a new id (`options.id`, else
 * one from the thread's id source), with the parent recorded and the thread's clock and id source.
 * The copies keep seq, payload, refs and createdAt; they get new entry ids. Throws
 * `InvalidEntryError` for a seq the thread does not hold, or a thread loaded as a window.
 */
export function forkThread(thread: Thread, options: { readonly atSeq: number; readonly id?: string }): Thread {
  if (thread.firstSeq !== 0) throw new InvalidEntryError('', 'cannot fork a windowed thread: load it whole first')
  checkForkPoint(options.atSeq, thread.nextSeq - 1)
  const { now, createId } = stateOf(thread)
  const id = toThreadId(options.id ?? createId())
  const entries = forkCopies(thread.slice(0, options.atSeq), id, createId).map(deepFreeze)
  return new Thread({ id, entries, parent: { threadId: thread.id, atSeq: options.atSeq }, now, createId })
}

/** An in-memory thread; no storage needed. */
export function createThread(options: CreateThreadOptions = {}): Thread {
  return new Thread(options)
}

/** Throws unless `entry` belongs to thread `id` and has seq `expected` (the next one). */
function checkContinues(id: ThreadId, entry: Entry, expected: number, hint = ''): void {
  if (entry.threadId !== id) throw new InvalidEntryError('threadId', `entry ${entry.seq} belongs to thread ${entry.threadId}, not ${id}`)
  if (entry.seq !== expected) throw new InvalidEntryError('seq', `entries must be gapless: expected seq ${expected}, got ${entry.seq}${hint}`)
}
