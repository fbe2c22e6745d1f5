import type { SyncErrorCode } from './errors'
import type { MemorySyncState } from './memory-stream'
import type { IndexMessage, WireRecord } from './wire'

/** A push written down before it is sent, resent byte for byte until the server acknowledges it. */
export interface InflightPush {
  readonly epoch: number
  readonly seq: number
  /** The request body exactly as first sent. */
  readonly body: string
  /** The entries it carries (thread streams). */
  readonly ids: readonly string[]
}

export interface ProducerState {
  readonly epoch: number
  /** The seq of the next new push. */
  readonly seq: number
}

/** Where one thread's sync stands, saved after every step. */
export interface ThreadSyncState {
  readonly threadId: string
  /** Where the next read of the thread's stream starts (`-1`: the start). */
  readonly offset: string
  /** The thread's first `synced` entries are in the stream's order, the same on every device. */
  readonly synced: number
  /** Entries after `synced` the server acknowledged that this device has not read back yet. */
  readonly acked: readonly string[]
  readonly producer: ProducerState
  readonly inflight: InflightPush | null
  /** The record as last pushed or taken from the index. */
  readonly record: WireRecord | null
  /** Deleted here or elsewhere: its stream is closed. */
  readonly deleted: boolean
  /** Attachments its placed entries use that the blob endpoint did not have yet: `[id, mediaType]`, read again on the next step. */
  readonly blobs?: readonly (readonly [string, string])[]
  /** Why the thread's sync stopped (a stream of a newer version, or not made by sync), or `null`. */
  readonly halted: { readonly code: SyncErrorCode; readonly message: string } | null
  /**
   * The index said the stream has news this device has not read yet: saved before the index's
   * offset moves past the notice, cleared once the stream is read, so a reload or crash in between
   * still reads it (absent: false).
   */
  readonly behind?: boolean
}

/** Where the device's sync stands: its id, and its place in the store's index stream. */
export interface DeviceSyncState {
  /** Random, made once: the producer id of this device's pushes. */
  readonly deviceId: string
  readonly indexOffset: string
  readonly indexProducer: ProducerState
  readonly indexInflight: InflightPush | null
  /** Index messages waiting to be pushed, oldest first. */
  readonly indexOutbox: readonly IndexMessage[]
}

/** Where sync keeps its state: IndexedDB (`indexedDbSyncState`) or memory (tests, the in-memory store). */
export interface SyncStateStore {
  loadDevice(createId: () => string): Promise<DeviceSyncState>
  saveDevice(state: DeviceSyncState): Promise<void>
  loadThreads(): Promise<readonly ThreadSyncState[]>
  saveThread(state: ThreadSyncState): Promise<void>
  loadMemories(): Promise<readonly MemorySyncState[]>
  saveMemory(state: MemorySyncState): Promise<void>
  /** Forgets everything (a sign-out). */
  clear(): Promise<void>
}

export function newThreadState(threadId: string): ThreadSyncState {
  return { threadId, offset: '-1', synced: 0, acked: [], producer: { epoch: 0, seq: 0 }, inflight: null, record: null, deleted: false, halted: null }
}

export function newDeviceState(deviceId: string): DeviceSyncState {
  return { deviceId, indexOffset: '-1', indexProducer: { epoch: 0, seq: 0 }, indexInflight: null, indexOutbox: [] }
}

/** Sync state in memory: it survives an engine's restart, not a reload. Values are copied in and out. */
export function inMemorySyncState(): SyncStateStore {
  let device: DeviceSyncState | undefined
  const threads = new Map<string, ThreadSyncState>()
  const memories = new Map<string, MemorySyncState>()
  return {
    async loadDevice(createId) {
      device ??= newDeviceState(createId())
      return structuredClone(device)
    },
    async saveDevice(state) {
      device = structuredClone(state)
    },
    async loadThreads() {
      return [...threads.values()].map((state) => structuredClone(state))
    },
    async saveThread(state) {
      threads.set(state.threadId, structuredClone(state))
    },
    async loadMemories() {
      return [...memories.values()].map((state) => structuredClone(state))
    },
    async saveMemory(state) {
      memories.set(state.memoryId, structuredClone(state))
    },
    async clear() {
      device = undefined
      threads.clear()
      memories.clear()
    },
  }
}
