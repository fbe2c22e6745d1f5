import type { ProjectionResult, SessionRetry, SessionServerLimit, ThreadlensEvent } from '@threadlens/core'
import type { TokenCalibration } from '@threadlens/core/calls'
import type { StopReason } from '../model/model-client'

/** What `send` and `resume` stream, as one discriminated union. */
export type SessionEvent =
  | { readonly type: 'request-start'; readonly requestId: string }
  /** Another tab drives the thread; with `waitForThread` this request waits for it to finish. */
  | { readonly type: 'lock-wait'; readonly requestId: string; readonly threadId: string }
  /** The context of the next model call, exactly as it will be sent. */
  | {
      readonly type: 'projection-end'
      readonly requestId: string
      readonly callId: string
      readonly iteration: number
      readonly projection: ProjectionResult
    }
  | { readonly type: 'text-delta'; readonly callId: string; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly callId: string; readonly toolCallId: string; readonly name: string }
  | { readonly type: 'tool-call'; readonly callId: string; readonly toolCallId: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: 'tool-result'; readonly toolCallId: string; readonly name: string; readonly output: string; readonly isError: boolean }
  | {
      readonly type: 'usage'
      readonly callId: string
      readonly inputTokens: number
      readonly outputTokens: number
      readonly cachedInputTokens: number | undefined
    }
  /** A model call failed and will be tried again after `delayMs` (announced when the wait starts). */
  | ({ readonly type: 'retry-wait'; readonly requestId: string; readonly callId: string } & SessionRetry)
  /** The server's context-too-long error named its real window: later calls project within it. */
  | ({ readonly type: 'server-limit-learn'; readonly requestId: string } & SessionServerLimit)
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
