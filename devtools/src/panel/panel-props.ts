import type { ContextPolicy, Memory, SessionSource, ToolSchema } from '@threadlens/core'
import type { ThreadlensClient } from '@threadlens/client'
import type { RecallSearcher } from '@threadlens/core/recall'

/** A named policy offered in the panel's policy menu. */
export interface PolicyChoice {
  readonly id: string
  readonly label: string
  readonly policy: ContextPolicy
}

/**
 * Where sync stands, as the Storage tab shows it: the shape of `@threadlens/sync`'s
 * `sync.status.getSnapshot()`, declared here so the devtools do not depend on that package.
 */
export interface DevtoolsSyncStatus {
  readonly state: 'standby' | 'starting' | 'synced' | 'pending' | 'offline' | 'error' | 'stopped'
  /** Local entries not yet in the server's order. */
  readonly pending: number
  /** The failure behind `offline` or `error`, else `null`. */
  readonly error: { readonly message: string } | null
  /** When sync last reached the end of every stream (ms since the epoch), or `null`. */
  readonly lastSyncedAt: number | null
  /** Memory writes of this device that lost to another device's, newest last. */
  readonly conflicts?: readonly { readonly message: string }[]
  /** Threads deleted elsewhere whose unsynced entries were kept in a new thread. */
  readonly recovered?: readonly { readonly from: string; readonly to: string }[]
  /** Stream messages this device refused, newest last. */
  readonly rejected?: readonly { readonly message: string }[]
}

/** A subscribable sync status (`useSyncExternalStore`'s shape), e.g. `@threadlens/sync`'s `sync.status`. */
export interface DevtoolsSyncSource {
  getSnapshot(): DevtoolsSyncStatus
  subscribe(listener: () => void): () => void
}

/** What the panel inspects. Give `threadId` (read-only inspector), or `session` (live), or both. */
export interface DevtoolsPanelProps {
  /** The thread to inspect. Default: the session's `threadId`. */
  readonly threadId?: string
  /** A live session (`@threadlens/agent`'s `Session`, or any `SessionSource`): shows its status and the request in progress. Default: none. */
  readonly session?: SessionSource
  /** The policy the app projects with. Default: the session's policy, else `presets.shortContext()`. */
  readonly policy?: ContextPolicy
  /** More policies for the policy menu, beside the built-in presets. Default: none. */
  readonly policies?: readonly PolicyChoice[]
  /** Tool schemas the app's requests carry (their tokens come out of the budget). Default: the session's tools, else none. */
  readonly tools?: readonly ToolSchema[]
  /**
   * The memory segment the app's requests carry (text, or a `Memory` rendered by the policy's
   * `memorySpaces`), so the meter and projection match what is sent. Default: the memory the
   * session's latest call carried, else none.
   */
  readonly memory?: string | Memory
  /**
   * The recall index the app's requests search (`createRecallIndex()` of `@threadlens/core/recall`,
   * the one given to `project()` or the session for this thread), so a policy with recall is
   * projected as the app projects it. Default: the panel's own, loaded at the first click or key
   * press when a policy shown recalls (the same entries: recall is deterministic).
   */
  readonly recall?: RecallSearcher
  /** Memory id (agent id) shown in the Memory tab. Default: none (the tab says how to set it). */
  readonly agentId?: string
  /** The client; default: the one of the nearest `<ThreadlensProvider>`. */
  readonly client?: ThreadlensClient
  /** The app's sync status, shown in the Storage tab (as text). Default: none (the tab says sync is off). */
  readonly sync?: DevtoolsSyncSource
  /** localStorage key of the UI state (tab). Default `threadlens-devtools`. */
  readonly storageKey?: string
}
