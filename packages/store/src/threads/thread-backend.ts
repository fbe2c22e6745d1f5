import type { Entry } from '@threadlens/core'
import type { ThreadId } from '@threadlens/core/internal'
import type { RecallTermsRow } from '@threadlens/core/recall'
import type { AttachmentRow, ThreadRow } from '../rows'
import type { PreparedEntry, StoredToolIds } from './prepare-entries'
import type { LoadWindowOptions, SubscribeOptions, ThreadListListener, ThreadStoreListener } from './thread-store'

/** What an append writes: the entries with their seqs, and the thread's row after them. */
export interface AppendPlan {
  readonly entries: readonly Entry[]
  readonly row: ThreadRow
}

/** What a placement (`placeSynced`) writes: the thread from `fromSeq` on, and its row after it. */
export interface PlacementPlan {
  readonly row: ThreadRow
  /** The seq the placement starts at (`keep`). */
  readonly fromSeq: number
  /** The first seq whose entry is not stored as it was: only entries from it on are written. */
  readonly changedFrom: number
  /** The thread's entries from `fromSeq` on, after the placement. */
  readonly entries: readonly Entry[]
  /** The entries new to the thread, in seq order. */
  readonly added: readonly Entry[]
  /** Stored entries whose seq changed; 0 makes the placement an append of `added`. */
  readonly moved: number
}

/**
 * Where threads are kept: IndexedDB (`createThreadStore`) or memory (`createMemoryBackedStores`).
 * A backend only stores and reads; `threadStoreOnBackend` builds the store's rules on top of it
 * (validation, seqs, limits, records, fork and import). Each method is atomic: a step that
 * throws writes nothing. Methods that need a thread throw `ThreadNotFoundError` when it is missing.
 */
export interface ThreadBackend {
  readonly persistent: boolean
  /** Throws when the backend takes no writes now (a database stopped after a reset or an upgrade elsewhere). */
  assertWorking(operation: string): void
  getRow(threadId: string, operation: string): Promise<ThreadRow | undefined>
  /** Every thread's row, most recently updated first. */
  listRows(operation: string): Promise<ThreadRow[]>
  /**
   * Adds a new thread with its entries and the attachments an import brought (kept once: rows
   * already stored stay); a `constraint` `StorageError` when the id is taken.
   */
  insert(row: ThreadRow, entries: readonly Entry[], operation: string, attachments?: readonly AttachmentRow[]): Promise<void>
  /** The stored attachment rows of these ids (those that exist), for an export. */
  readAttachments(ids: readonly string[], operation: string): Promise<AttachmentRow[]>
  /**
   * Reads the thread's row and which of `prepared`'s tool call ids are stored, lets `plan` build the
   * entries and the next row, and writes them; nothing when `plan` gives no entries. `time` is the
   * store's clock for the write (calibrations updated with it). A backend may call `onCommitted`
   * with the entries as soon as they are committed, before `append` resolves.
   */
  append(
    threadId: ThreadId,
    prepared: readonly PreparedEntry[],
    operation: string,
    time: number,
    plan: (row: ThreadRow, stored: StoredToolIds) => AppendPlan,
    onCommitted?: (entries: readonly Entry[]) => void,
  ): Promise<readonly Entry[]>
  /**
   * Reads the thread's row and all its entries, lets `plan` place entries among them, and writes the
   * entries from `changedFrom` on, the row, the recall terms beside them and the calibrations of the
   * added entries; nothing when nothing was added or moved. With nothing moved it is an append (its
   * subscribers hear `entry-append`, and `onCommitted` may get the added entries at the commit);
   * otherwise they hear `thread-rebase`.
   */
  place(
    threadId: ThreadId,
    operation: string,
    time: number,
    plan: (row: ThreadRow, entries: readonly Entry[]) => PlacementPlan,
    onCommitted?: (entries: readonly Entry[]) => void,
  ): Promise<PlacementPlan>
  /** Reads the thread's row and stores what `change` makes of it. */
  updateRow(threadId: ThreadId, operation: string, change: (row: ThreadRow) => ThreadRow): Promise<ThreadRow>
  /** The thread's row and its entries: all of them, or those a windowed load needs (a backend may give all). */
  read(threadId: ThreadId, operation: string, window?: LoadWindowOptions): Promise<{ readonly row: ThreadRow; readonly entries: readonly Entry[] }>
  /** The thread's entries from `fromSeq` (an integer ≥ 0) on. */
  readFrom(threadId: ThreadId, fromSeq: number, operation: string): Promise<readonly Entry[]>
  /**
   * Reads a thread's row, then its entries up to the seq `upTo` picks, and inserts the thread
   * `build` makes of them (a fork), which then holds the attachments its entries use, so deleting
   * the source keeps them; a `constraint` `StorageError` when the new id is taken.
   */
  insertFrom(
    sourceId: ThreadId,
    operation: string,
    upTo: (source: ThreadRow) => number,
    build: (source: ThreadRow, entries: readonly Entry[]) => { readonly row: ThreadRow; readonly entries: readonly Entry[] },
  ): Promise<ThreadRow>
  /**
   * The terms recall indexes of each of the thread's entries, one row per entry from seq 0 (kept
   * beside the entries, or worked out from them), for `RecallIndex.restore`.
   */
  recallTerms(threadId: ThreadId, operation: string): Promise<readonly RecallTermsRow[]>
  /** Deletes the thread, its entries, its failed attempts and the attachments no other thread uses; nothing if it is not stored. */
  delete(threadId: ThreadId): Promise<void>
  eraseAll(): Promise<void>
  /**
   * Live events; `onRead` sees every batch of entries read for the listener (to report unreadable
   * ones). `delivered` gives the last seq the listener already has from this tab's own commits
   * (`undefined` when unknown): a backend that reads entries on a change need not read those.
   */
  subscribe(
    threadId: string,
    listener: ThreadStoreListener,
    options: SubscribeOptions | undefined,
    onRead: (entries: readonly Entry[]) => void,
    delivered?: () => number | undefined,
  ): () => void
  subscribeList(listener: ThreadListListener): () => void
}
