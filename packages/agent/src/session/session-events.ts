import type { ProjectionResult, ThreadlensEvent, TokenCalibration } from '@threadlens/core'
import type { StopReason } from '../model/model-client'

/** A failed attempt the client will make again after `delayMs`: for "retrying in 4 s (2/3)". */
export interface RetryWait {
  /** The attempt about to be made (2 for the first retry) and the most there will be for this call. */
  readonly attempt: number
  readonly maxAttempts: number
  readonly delayMs: number
  /** When the next attempt starts, in ms since the epoch. */
  readonly retryAt: number
  /** The failure being retried (a `ProviderError`: rate limit, server error, network). */
  readonly error: unknown
}

/**
 * The context size a server said it really has (its "context too long" error named it), which the
 * session now projects within for this model, whatever the policy says.
 */
export interface ServerLimit {
  readonly model: string
  /** The limit the server named, in its own tokens. */
  readonly limitTokens: number
  /** The request size it reported, in its own tokens; `undefined` when it did not say. */
  readonly requestedTokens: number | undefined
  /** The `maxInputTokens` (in the policy's counting) the session projects within from now on. */
  readonly maxInputTokens: number
}

/** What `send` and `resume` stream, as one discriminated union. */
export type SessionEvent =
  | { readonly type: 'request-start'; readonly requestId: string }
  /** Another tab drives the thread; with `waitForThread` this request waits for it to finish. */
  | { readonly type: 'lock-wait'; readonly requestId: string; readonly threadId: string }
  /** The context of the next model call, exactly as it will be sent. */
  | { readonly type: 'projection-end'; readonly requestId: string; readonly callId: string; readonly iteration: number; readonly projection: ProjectionResult }
  | { readonly type: 'text-delta'; readonly callId: string; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly callId: string; readonly toolCallId: string; readonly name: string }
  | { readonly type: 'tool-call'; readonly callId: string; readonly toolCallId: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: 'tool-result'; readonly toolCallId: string; readonly name: string; readonly output: string; readonly isError: boolean }
  | { readonly type: 'usage'; readonly callId: string; readonly inputTokens: number; readonly outputTokens: number; readonly cachedInputTokens: number | undefined }
  /** A model call failed and will be tried again after `delayMs` (announced when the wait starts). */
  | ({ readonly type: 'retry-wait'; readonly requestId: string; readonly callId: string } & RetryWait)
  /** The server's context-too-long error named its real window: later calls project within it. */
  | ({ readonly type: 'server-limit-learn'; readonly requestId: string } & ServerLimit)
  /**
   * A call's reported prompt tokens were added to the model's calibration. `mismatch` is set when an
   * exact counter differs from the provider by more than the per-message overhead: counts are off.
   */
  | {
      readonly type: 'calibration-update'
      readonly model: string
      readonly counter: string
      readonly calibration: TokenCalibration
      readonly mismatch: { readonly tokensPerMessage: number; readonly ratio: number } | undefined
    }
  /** The loop hit `maxIterations` model calls in one request and stopped. */
  | { readonly type: 'max-iterations'; readonly requestId: string; readonly iterations: number }
  | { readonly type: 'done'; readonly requestId: string; readonly text: string; readonly stopReason: StopReason }
  /** The request ended early; the thread holds everything that happened up to here. */
  | { readonly type: 'error'; readonly requestId: string; readonly error: unknown }
  | ThreadlensEvent

export type SessionEventType = SessionEvent['type']

export type SessionStatus = 'idle' | 'awaiting-model' | 'retrying' | 'awaiting-tools'

/** What `useSession` and the devtools read. Replaced, never mutated. */
export interface SessionSnapshot {
  readonly threadId: string
  readonly status: SessionStatus
  readonly requestId: string | undefined
  /** Text of the reply streaming now. */
  readonly streamingText: string
  /** Tool calls running now. */
  readonly runningTools: readonly { readonly toolCallId: string; readonly name: string }[]
  /** The projection of the latest model call. */
  readonly lastProjection: ProjectionResult | undefined
  readonly lastError: unknown
  /** Context operations waiting for the request to end. */
  readonly deferredOperations: number
  /** The retry being waited for while `status` is `retrying`. */
  readonly retry: RetryWait | undefined
  /** The server's own context limit, once a "context too long" error named it (kept for the session). */
  readonly serverLimit: ServerLimit | undefined
}
