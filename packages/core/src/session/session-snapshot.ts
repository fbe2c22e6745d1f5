import type { RecordedCall } from '../calls/recorded-call'
import type { ContextPolicy } from '../policy/policy'
import type { ProjectionResult } from '../project/types'
import type { ToolSchema } from '../tokens/token-counter'

/**
 * The contract between a chat session and what shows it (`useSession`, the devtools): one owner,
 * types only. `@threadlens/agent`'s `Session` fills every field; a loop of your own can drive
 * `@threadlens/client`'s `createSessionSource`, which fills what you leave out.
 */

/** What a chat session is doing. */
export type SessionStatus = 'idle' | 'awaiting-model' | 'retrying' | 'awaiting-tools'

/** A failed model call that will be tried again after `delayMs`: for "retrying in 4 s (2/3)". */
export interface SessionRetry {
  /** The attempt about to be made (2 for the first retry) and the most there will be for this call. */
  readonly attempt: number
  readonly maxAttempts: number
  readonly delayMs: number
  /** When the next attempt starts, in ms since the epoch. */
  readonly retryAt: number
  /** The failure being retried (a provider error: rate limit, server error, network). */
  readonly error: unknown
}

/**
 * The context size a server said it really has (its "context too long" error named it), which the
 * session now projects within for this model, whatever the policy says.
 */
export interface SessionServerLimit {
  readonly model: string
  /** The limit the server named, in its own tokens. */
  readonly limitTokens: number
  /** The request size it reported, in its own tokens; `undefined` when it did not say. */
  readonly requestedTokens: number | undefined
  /** The `maxInputTokens` (in the policy's counting) the session projects within from now on. */
  readonly maxInputTokens: number
}

/** A session's state, replaced (never mutated) on every change. */
export interface SessionSnapshot {
  /** The thread the session writes to. */
  readonly threadId: string
  readonly status: SessionStatus
  /** The request (one user ask) in progress. */
  readonly requestId: string | undefined
  /** The user's message being sent, until it is in the thread (e.g. while another tab holds it). */
  readonly pendingMessage: string | undefined
  /** Text of the reply streaming now. */
  readonly streamingText: string
  /** Tool calls running now. */
  readonly runningTools: readonly { readonly toolCallId: string; readonly name: string }[]
  /** The policy of the request in progress (or the last one); before any, the session's own, if it has one. */
  readonly policy: ContextPolicy | undefined
  /** Tool schemas every model call of the session carries. */
  readonly tools: readonly ToolSchema[]
  /** Memory text the latest model call carried; `undefined` before the first call or when it carried none. */
  readonly memory: string | undefined
  /** The projection of the model call in flight (or the last one). */
  readonly lastProjection: ProjectionResult | undefined
  /**
   * What the session knows of its model calls, by `callId`, merged over the records on the
   * thread: here as soon as a call is sent, before its record is written.
   */
  readonly calls: readonly RecordedCall[]
  /** The last error the session reported. */
  readonly lastError: unknown
  /** Context operations (pin, reset, compact) waiting for the request to end. */
  readonly deferredOperations: number
  /** The retry being waited for while `status` is `retrying`. */
  readonly retry: SessionRetry | undefined
  /** The server's own context limit, once its "context too long" error named it (kept for the session). */
  readonly serverLimit: SessionServerLimit | undefined
}

/** What a session reports before it has done anything: idle, nothing pending, nothing known. */
export function idleSessionSnapshot(
  threadId: string,
  start: { readonly policy?: ContextPolicy; readonly tools?: readonly ToolSchema[] } = {},
): SessionSnapshot {
  return {
    threadId,
    status: 'idle',
    requestId: undefined,
    pendingMessage: undefined,
    streamingText: '',
    runningTools: [],
    policy: start.policy,
    tools: start.tools ?? [],
    memory: undefined,
    lastProjection: undefined,
    calls: [],
    lastError: undefined,
    deferredOperations: 0,
    retry: undefined,
    serverLimit: undefined,
  }
}

/**
 * What `useSession` consumes: the `useSyncExternalStore` pair. `getSnapshot` returns the same
 * object until something changed.
 */
export interface SessionSource {
  subscribe(listener: () => void): () => void
  getSnapshot(): SessionSnapshot
}
