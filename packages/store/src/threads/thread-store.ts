import type { CounterSource } from '@threadlens/core/models'
import type { ContextPolicy, Entry, EntryInput, JsonObject, Thread, TokenCounter } from '@threadlens/core'
import type { ThreadId } from '@threadlens/core/internal'
import type { ImportChange } from '@threadlens/core/import'
import type { RecallIndex, RecallIndexOptions } from '@threadlens/core/recall'
import type { ThreadRecord } from '../rows'
import type { UnreadableEntryError } from '../errors'
import type { ImportLimits } from '../transfer/import-limits'
import type { ThreadRecordChanges, UpdateThreadOptions } from './thread-record'

/** What a thread subscriber hears. Fired only for committed writes, from this tab or any other. */
export type ThreadStoreEvent =
  /** Entries were committed; they come in seq order, each exactly once. */
  | { readonly type: 'entry-append'; readonly threadId: ThreadId; readonly entries: readonly Entry[] }
  /**
   * A placement (`placeSynced`) moved stored entries: the entries from `fromSeq` on changed (some
   * moved to other seqs, some may be new). Read them again (`load`) up to `lastSeq` at least; later
   * `entry-append` events go on from `lastSeq + 1`.
   */
  | { readonly type: 'thread-rebase'; readonly threadId: ThreadId; readonly fromSeq: number; readonly lastSeq: number }
  /** The thread was deleted (or erased with everything else). */
  | { readonly type: 'thread-delete'; readonly threadId: ThreadId }
  /** The subscription cannot go on (e.g. `StorageResetError`, `SchemaUpgradeError`); no further events follow. */
  | { readonly type: 'storage-fail'; readonly threadId: ThreadId; readonly error: unknown }
  /**
   * Only with `records: true`: the thread's record as stored, when the subscription starts and
   * after each update or rename (a new `rev`). Appends do not send one.
   */
  | { readonly type: 'record-update'; readonly threadId: ThreadId; readonly record: ThreadRecord }

export type ThreadStoreListener = (event: ThreadStoreEvent) => void

export interface CreateThreadRecordOptions {
  /** Default: a random UUID (from the store's `createId`). */
  readonly id?: string
  /** Default: `''`. */
  readonly title?: string
  /** Free-form JSON of the application. Default: `{}`. */
  readonly metadata?: JsonObject
  /** Default: `[]`. At most 100 strings of 1–256 characters; duplicates dropped. */
  readonly tags?: readonly string[]
  /** Default: `null`. */
  readonly model?: string | null
  /** Default: `null`. */
  readonly policyName?: string | null
}

/** What a thread list subscriber hears. */
export type ThreadListEvent =
  /** The whole list, most recently updated first: once at the start, then after every commit that changed a thread record, from any tab. */
  | { readonly type: 'list-update'; readonly threads: readonly ThreadRecord[] }
  /** The subscription cannot go on (e.g. `StorageResetError`); no further events follow. */
  | { readonly type: 'storage-fail'; readonly error: unknown }

export type ThreadListListener = (event: ThreadListEvent) => void

export interface ForkThreadOptions {
  /** The last seq of the parent the fork copies (0..lastSeq). */
  readonly atSeq: number
  /** Default: a random UUID. */
  readonly id?: string
  /** Default: the parent's title. */
  readonly title?: string
}

/**
 * Load only what the first projection under `policy` needs: the newest entries back until the
 * policy's input budget is surely filled (stored token counts), or back to the summary in use or
 * the newest reset, extended to take in the latest user message, pinned entries and whole tool
 * call units. Projecting the window gives the same messages as projecting the whole thread.
 */
export interface LoadWindowOptions {
  /** The policy the projection will use. */
  readonly policy: ContextPolicy
  /** The counter it will use; entries stored with this counter's counts are not recounted. */
  readonly counter: TokenCounter
}

export interface LoadThreadOptions {
  /** Default: no window, the whole thread is read. */
  readonly window?: LoadWindowOptions
}

export interface SubscribeOptions {
  /**
   * Also deliver committed entries after this seq that the subscription finds when it starts
   * (pass the loaded thread's `nextSeq - 1` to miss nothing between `load` and `subscribe`).
   * Default: only entries committed after the subscription started. A `thread-rebase` committed
   * between that `load` and this call is not reported (the subscription knows no earlier state).
   */
  readonly afterSeq?: number
  /**
   * Also deliver `record-update` events (the title and the rest of the record, live across tabs)
   * on the same subscription, instead of following the whole thread list for one record.
   * Default: false.
   */
  readonly records?: boolean
}

export interface ImportThreadOptions {
  /** Default: the title in the file (`''` for message arrays). */
  readonly title?: string
  /** Merged over the metadata in the file. Default: none. */
  readonly metadata?: JsonObject
}

/** What `import` accepts: JSONL text (from `export`), a JSONL or JSON `Blob`, or an OpenAI-style messages array (or its JSON text). */
export type ImportInput = string | Blob | readonly unknown[]

/** What `import` wrote. */
export interface ImportedThread {
  /** The new thread's id. */
  readonly threadId: ThreadId
  /**
   * What the import changed in a messages array so it could be kept (a reused call id renamed,
   * empty arguments read as `{}`, …; see `ImportChange` and docs/formats.md), in message order.
   * `[]` for a JSONL export, which is taken as it is.
   */
  readonly changes: readonly ImportChange[]
}

/**
 * An entry as another device stored it (from a sync): its id and time are kept. `threadId` and `seq`
 * may be present (an entry read back from elsewhere) and are ignored; `meta.tokens` is ignored too
 * (the store counts with its own counters).
 */
export type SyncedEntry = EntryInput & {
  readonly id: string
  readonly createdAt: number
  readonly threadId?: string
  readonly seq?: number
}

/** What `placeSynced` did. */
export interface PlacedEntries {
  /** The entries of `entries` that were new to the thread, as stored, in seq order. */
  readonly added: readonly Entry[]
  /** How many entries already stored changed seq (0: the placement was an append at the end). */
  readonly moved: number
  /** The thread from seq `keep` on, as stored now. */
  readonly entries: readonly Entry[]
}

export interface ThreadStore {
  /** `false` for the in-memory fallback: nothing survives a reload. */
  readonly persistent: boolean
  /** Limits every import is checked against before parsing. */
  readonly importLimits: ImportLimits
  /** Creates an empty thread. */
  create(options?: CreateThreadRecordOptions): Promise<ThreadRecord>
  /** The thread's record, or `undefined`. */
  get(threadId: string): Promise<ThreadRecord | undefined>
  /** Appends one entry in one transaction; returns it with its `seq`. Validated as by `Thread.append`. */
  append(threadId: string, input: EntryInput): Promise<Entry>
  /** Appends entries all or nothing, in one transaction. */
  appendMany(threadId: string, inputs: readonly EntryInput[]): Promise<readonly Entry[]>
  /**
   * Puts entries agreed elsewhere (a sync) at their place in the thread: its first `keep` entries
   * (seqs 0..keep-1) stay where they are; then come `entries`, in the order given; then the thread's
   * other entries, in their order. An entry of `entries` whose id is already stored after the first
   * `keep` is moved there (stored content kept); one whose id is among the first `keep` is skipped
   * (already placed); the others are added, validated and counted as `append` does, keeping their
   * id and createdAt. Seqs are renumbered gaplessly from `keep`; ids never change. All or nothing,
   * in one transaction: the thread after it must obey every append rule (`InvalidEntryError` naming
   * the entry otherwise), `keep` must be 0..entryCount (`InvalidEntryError` on `keep`), and the
   * thread stays within the import limits (`ThreadFullError`). Subscribers hear `entry-append` when
   * nothing stored moved, `thread-rebase` when something did. Seqs written inside entries (a
   * summary's range, a context op's target, a call record's `basisSeq`) are kept as they were stored.
   */
  placeSynced(threadId: string, keep: number, entries: readonly SyncedEntry[]): Promise<PlacedEntries>
  /** The thread as a core `Thread` (a snapshot), whole or windowed. */
  load(threadId: string, options?: LoadThreadOptions): Promise<Thread>
  /**
   * The stored entries from `fromSeq` on, in seq order, without reading the ones before (`[]` past
   * the end): a thread's newest part, e.g. what sync has not pushed yet.
   */
  entriesFrom(threadId: string, fromSeq: number): Promise<readonly Entry[]>
  /**
   * The thread's full-text recall index (`createRecallIndex()` of `@threadlens/core/recall`, loaded
   * on first call), restored from the terms kept beside the entries (written in the same
   * transaction as each append, import and fork, deleted with the thread), so a long thread is
   * not tokenized again. Pass it to `project()` or a session as `recall`: it keeps up with later
   * appends from the entries it is given. Entries stored before the terms were kept get theirs on
   * the first call. In memory (the fallback) the index is built from the entries.
   */
  recallIndex(threadId: string, options?: RecallIndexOptions): Promise<RecallIndex>
  /** Every thread, most recently updated first. */
  list(): Promise<ThreadRecord[]>
  /**
   * Changes the record (title, tags, model, policy name, metadata) in one transaction and bumps
   * its `rev`. With `expectedRev`, a stale revision throws `RevisionConflictError` (`target.kind: 'thread-record'`) and writes nothing.
   */
  update(threadId: string, changes: ThreadRecordChanges, options?: UpdateThreadOptions): Promise<ThreadRecord>
  /** `update(threadId, { title }, options)`. */
  rename(threadId: string, title: string, options?: UpdateThreadOptions): Promise<ThreadRecord>
  /**
   * The live thread list, across tabs: `list-update` with every record now, then again after each
   * create, append, update, fork, import or delete. Returns the function that stops it.
   */
  subscribeList(listener: ThreadListListener): () => void
  /** A new thread holding copies of entries `0..atSeq` (new entry ids), with `parent` recorded. */
  fork(threadId: string, options: ForkThreadOptions): Promise<ThreadRecord>
  /** Deletes a thread and all its entries. No-op when it does not exist. */
  delete(threadId: string): Promise<void>
  /** Deletes every thread, entry and memory of this database, even with other tabs open (they stop). */
  eraseAll(): Promise<void>
  /**
   * Live events for committed writes to one thread, from every tab: each entry once, in seq order.
   * This store's own appends are delivered by the time they resolve. Returns the function that stops them.
   */
  subscribe(threadId: string, listener: ThreadStoreListener, options?: SubscribeOptions): () => void
  /** The thread as JSONL: a header line, then one entry per line. */
  export(threadId: string): Promise<string>
  /**
   * Validates everything, then writes a new thread in one transaction; returns its id and what the
   * import changed (`changes`, for a messages array). A bad input changes nothing.
   */
  import(input: ImportInput, options?: ImportThreadOptions): Promise<ImportedThread>
}

/** Options of `createThreadStore` and the in-memory fallback. */
export interface ThreadStoreOptions {
  /**
   * Counters whose per-entry token counts are computed at append (and import) time and stored in
   * `entry.meta.tokens`, so a reload never recounts; a counter's promise (`createTokenCounter()`, not
   * awaited) counts from the moment it resolves. Default: none.
   */
  readonly counters?: readonly CounterSource[]
  /** Clock for `createdAt`/`updatedAt`. Default: `Date.now`. */
  readonly now?: () => number
  /** Id source for threads and entries. Default: `crypto.randomUUID`. */
  readonly createId?: () => string
  /**
   * Called for each stored entry a read finds unreadable (written by an earlier version, or edited
   * outside threadlens); the read goes on with a placeholder in its place (`entry.meta.unreadable`).
   * Default: a `console.warn` prefixed `[threadlens]`.
   */
  readonly onUnreadableEntry?: (error: UnreadableEntryError) => void
  /** Import limits. Default: `defaultImportLimits` (256 MiB, 4 MiB + 64 KiB per line, 200,000 entries). */
  readonly importLimits?: Partial<ImportLimits>
}
