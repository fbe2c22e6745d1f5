import type { ProjectionResult, ThreadlensEvent } from '@threadlens/core'
import type { StopReason } from '../model/model-client'

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
  /** The loop hit `maxIterations` model calls in one request and stopped. */
  | { readonly type: 'max-iterations'; readonly requestId: string; readonly iterations: number }
  | { readonly type: 'done'; readonly requestId: string; readonly text: string; readonly stopReason: StopReason }
  /** The request ended early; the thread holds everything that happened up to here. */
  | { readonly type: 'error'; readonly requestId: string; readonly error: unknown }
  | ThreadlensEvent

export type SessionEventType = SessionEvent['type']

export type SessionStatus = 'idle' | 'awaiting-model' | 'awaiting-tools'

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
}
