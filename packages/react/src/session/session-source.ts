import type { ContextPolicy, ProjectionResult } from '@threadlens/core'
import { createStore } from 'zustand/vanilla'
import type { RecordedCall } from '../calls/thread-calls'

/** What a chat session is doing; `@threadlens/agent` sessions report these. */
export type SessionStatus = 'idle' | 'awaiting-model' | 'retrying' | 'awaiting-tools' | (string & {})

/** A failed model call that will be tried again: `@threadlens/agent` fills it while `status` is `retrying`. */
export interface SessionRetry {
  /** The attempt about to be made (2 for the first retry) and the most there will be. */
  readonly attempt: number
  readonly maxAttempts: number
  readonly delayMs: number
  /** When the next attempt starts, in ms since the epoch. */
  readonly retryAt: number
  /** The failure being retried. */
  readonly error: unknown
}

/** The context window a server said it really has, which the session now projects within. */
export interface SessionServerLimit {
  readonly model: string
  /** The limit the server named, in its own tokens. */
  readonly limitTokens: number
  /** The request size it reported; `undefined` when it did not say. */
  readonly requestedTokens: number | undefined
  /** The `maxInputTokens` the session projects within from now on. */
  readonly maxInputTokens: number
}

/**
 * What `useSession` and the devtools read from a live session. Everything but `status` and
 * `threadId` is optional, so any chat loop can report what it knows; `@threadlens/agent`'s
 * `Session.getSnapshot()` fits as it is.
 */
export interface SessionSnapshot {
  readonly status: SessionStatus
  /** The thread the session writes to. */
  readonly threadId: string
  /** The request (one user ask) in progress. */
  readonly requestId?: string | undefined
  /** The user's message being sent, before it is in the thread. */
  readonly pendingMessage?: string | undefined
  /** Text of the reply streaming now. */
  readonly streamingText?: string | undefined
  /** Tool calls running now. */
  readonly runningTools?: readonly { readonly toolCallId: string; readonly name: string }[] | undefined
  /** The policy the session projects with (per-request policy resolved). */
  readonly policy?: ContextPolicy | undefined
  /** The projection of the model call in flight (or the last one). */
  readonly lastProjection?: ProjectionResult | undefined
  /** What the session knows per model call beyond the thread's own records, by `callId`. */
  readonly calls?: readonly RecordedCall[] | undefined
  /** The last error the session reported. */
  readonly lastError?: unknown
  /** The retry being waited for, while `status` is `retrying`. */
  readonly retry?: SessionRetry | undefined
  /** The server's own context limit, once its "context too long" error named it. */
  readonly serverLimit?: SessionServerLimit | undefined
}

/**
 * The minimal contract `useSession` consumes: the `useSyncExternalStore` pair.
 * `getSnapshot` must return the same object until something changed.
 */
export interface SessionSource {
  subscribe(listener: () => void): () => void
  getSnapshot(): SessionSnapshot
}

/** A `SessionSource` you drive yourself (tests, demos, or a loop of your own). */
export interface SessionSourceController extends SessionSource {
  /** Replaces the fields given; listeners hear one change. */
  update(changes: Partial<SessionSnapshot>): void
}

export function createSessionSource(initial: SessionSnapshot): SessionSourceController {
  const store = createStore<SessionSnapshot>()(() => initial)
  return {
    subscribe: (listener) => store.subscribe(() => listener()),
    getSnapshot: store.getState,
    update: (changes) => store.setState(changes),
  }
}
