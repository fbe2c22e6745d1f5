import type { SyncError, SyncRejectedError } from './errors'
import type { MemorySyncConflictError } from './memory-stream'

/**
 * Where sync stands, for a header badge or the panel:
 * - `standby`: another tab of the app syncs this store; this one takes over when that tab closes;
 * - `starting`: reading its state and the server for the first time;
 * - `synced`: every included thread is on the server and up to date;
 * - `pending`: `pending` entries (or record changes) wait to be pushed or read back;
 * - `offline`: the server does not answer; retried with backoff, nothing is lost;
 * - `error`: a thread cannot sync (see `error`): the rest goes on;
 * - `stopped`: `stop()` was called.
 */
export type SyncState = 'standby' | 'starting' | 'synced' | 'pending' | 'offline' | 'error' | 'stopped'

export interface SyncStatus {
  readonly state: SyncState
  /** Local entries not yet in the server's agreed order, over all included threads. */
  readonly pending: number
  /** The failure behind `offline` or `error`, else `null`. */
  readonly error: SyncError | null
  /** When sync last reached the end of every stream it read (ms since the epoch), or `null`. */
  readonly lastSyncedAt: number | null
  /** Threads deleted elsewhere whose unsynced entries this device kept in a new thread: `{ from, to }` ids. */
  readonly recovered: readonly { readonly from: string; readonly to: string }[]
  /** Stream messages this device refused (each also given to `onRejected`), the newest 20. */
  readonly rejected: readonly SyncRejectedError[]
  /** Memory writes of this device that lost to another device's (each also given to `onConflict`), the newest 20. */
  readonly conflicts: readonly MemorySyncConflictError[]
}

/** A subscribable status, in the shape `useSyncExternalStore` takes. */
export interface SyncStatusSource {
  getSnapshot(): SyncStatus
  subscribe(listener: () => void): () => void
}

export const initialStatus: SyncStatus = {
  state: 'starting',
  pending: 0,
  error: null,
  lastSyncedAt: null,
  recovered: [],
  rejected: [],
  conflicts: [],
}

export function createStatusSource(): SyncStatusSource & { set(change: Partial<SyncStatus>): void } {
  let status = initialStatus
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => status,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(change) {
      const next = { ...status, ...change }
      if (Object.keys(change).every((key) => Object.is(next[key as keyof SyncStatus], status[key as keyof SyncStatus]))) return
      status = next
      for (const listener of [...listeners]) listener()
    },
  }
}
