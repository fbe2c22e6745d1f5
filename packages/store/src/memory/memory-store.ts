import type { JsonObject, JsonValue } from '@threadlens/core'
import type { Memory } from '@threadlens/core'
import type { MemoryMatch, MemoryQueryOptions, SpaceKind, Task } from '@threadlens/core/memory'
import type { WriteOptions } from '@threadlens/core/memory'

/** The data `update` hands to (and expects back from) the update function of a space. */
export type SpaceDataOf<K extends string> = K extends 'tasks' ? readonly Task[] : K extends 'world' ? JsonObject : JsonObject | readonly JsonValue[]

/** What a memory subscriber hears: the memory as it is when the subscription starts, then after every committed write (any tab). */
export type MemoryStoreEvent =
  | { readonly type: 'memory-update'; readonly memory: Memory }
  /** The subscription cannot go on (e.g. `StorageResetError`); no further events follow. */
  | { readonly type: 'storage-fail'; readonly memoryId: string; readonly error: unknown }

export type MemoryStoreListener = (event: MemoryStoreEvent) => void

export interface AddTaskOptions extends WriteOptions {
  /** Default: a random UUID. */
  readonly id?: string
}

/**
 * Revisioned memory per agent. Each write is one transaction that reads the stored memory,
 * applies a pure operation and writes it back, so concurrent writers never lose an update; with
 * `expectedRev` (the space's rev you last saw) a stale write fails with `RevisionConflictError`.
 */
export interface MemoryStore {
  /** `false` for the in-memory fallback. */
  readonly persistent: boolean
  /** The stored memory, or a fresh one (rev 0, empty `tasks` and `world`) that is stored on its first write. */
  get(memoryId: string): Promise<Memory>
  /**
   * The stored memory's items most relevant to `text`, best first (core's `queryMemory`: BM25+ over
   * each task, map entry and list item; `topK` default 5, `spaces` default all). Reads, never writes.
   */
  query(memoryId: string, text: string, options?: MemoryQueryOptions): Promise<readonly MemoryMatch[]>
  /** Replaces a space's data with `update(data)`; `update` must be synchronous and must not mutate its argument. */
  update<K extends string>(memoryId: string, space: K, update: (data: SpaceDataOf<K>) => SpaceDataOf<K>, options?: WriteOptions): Promise<Memory>
  /** Adds a custom space holding a map or a list. */
  createSpace(memoryId: string, name: string, kind: SpaceKind, options?: { readonly metadata?: JsonObject }): Promise<Memory>
  /** Removes a custom space (`tasks` and `world` cannot be removed). */
  deleteSpace(memoryId: string, name: string, options?: WriteOptions): Promise<Memory>
  /** The current memory, then the memory after each committed write from any tab (in rev order; a burst may be folded into its last state). Returns the function that stops them. */
  subscribe(memoryId: string, listener: MemoryStoreListener): () => void
  readonly world: {
    get(memoryId: string, key: string): Promise<JsonValue | undefined>
    put(memoryId: string, key: string, value: JsonValue, options?: WriteOptions): Promise<Memory>
    delete(memoryId: string, key: string, options?: WriteOptions): Promise<Memory>
  }
  readonly tasks: {
    /** Appends an open task. */
    add(memoryId: string, text: string, options?: AddTaskOptions): Promise<Memory>
    /** Inserts an open task at `index` (clamped to the list). */
    insert(memoryId: string, index: number, text: string, options?: AddTaskOptions): Promise<Memory>
    complete(memoryId: string, taskId: string, options?: WriteOptions): Promise<Memory>
    remove(memoryId: string, taskId: string, options?: WriteOptions): Promise<Memory>
    /** `taskIds` must name every task exactly once. */
    reorder(memoryId: string, taskIds: readonly string[], options?: WriteOptions): Promise<Memory>
    /** The first open task, or `undefined`. */
    next(memoryId: string): Promise<Task | undefined>
    /** The open tasks, in order. */
    open(memoryId: string): Promise<readonly Task[]>
  }
}

/** What an implementation supplies; `memoryStoreOnBackend` builds the rest. */
export interface MemoryBackend {
  readonly persistent: boolean
  get(memoryId: string): Promise<Memory>
  /** Runs `change` on the current memory (a fresh one if none is stored) and stores its result, atomically. */
  change(memoryId: string, operation: string, change: (memory: Memory, now: number) => Memory): Promise<Memory>
  subscribe(memoryId: string, listener: MemoryStoreListener): () => void
  readonly createId: () => string
}
