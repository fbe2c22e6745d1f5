import type { ContextPolicy, Memory, SessionSource, ToolSchema } from '@threadlens/core'
import type { ThreadlensClient } from '@threadlens/client'
import type { RecallSearcher } from '@threadlens/core/recall'

/** A named policy offered in the panel's policy menu. */
export interface PolicyChoice {
  readonly id: string
  readonly label: string
  readonly policy: ContextPolicy
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
  /** localStorage key of the UI state (tab). Default `threadlens-devtools`. */
  readonly storageKey?: string
}
