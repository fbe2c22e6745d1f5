import type { JsonObject, ProjectionResult, ToolSchema } from '@threadlens/core'
import type { Usage } from '@threadlens/core/calls'
import type { RetryNotice } from './stream-with-retries'

/** Who serves the model. Custom clients may name their own. */
export type ModelClientProvider = 'openai-compatible' | 'anthropic' | 'scripted' | (string & {})

/** One model call: the projection to send and the tools the model may call. */
export interface ModelRequest {
  /** What the model sees; the client converts it to its provider's format (`toOpenAIChat`, `toAnthropicMessages`). */
  readonly projection: ProjectionResult
  /** Tool schemas the model may call; an empty array sends none. */
  readonly tools: readonly ToolSchema[]
  /** Aborts the call: the stream ends with `finish` `{ stopReason: 'abort' }` instead of throwing. */
  readonly signal?: AbortSignal
  /** Caps the reply. Default: the client's own setting (the provider's default for OpenAI-compatible servers). */
  readonly maxOutputTokens?: number
  /**
   * The base64 bytes of store-held attachments the projection sends, by id (the store's
   * `attachments.dataFor(projection)`). Default: none.
   */
  readonly attachmentData?: (id: string) => string | undefined
  /** Told before each retry of this call (beside the client's own `onRetry`), e.g. for a countdown. Default: none. */
  readonly onRetry?: (notice: RetryNotice) => void
}

/**
 * Why the model stopped:
 * - `stop`: it finished its reply (or hit a stop sequence);
 * - `tool-calls`: it wants tool results before it goes on;
 * - `length`: the output token cap cut the reply;
 * - `content-filter`: the provider withheld or refused the reply;
 * - `error`: the provider said in-band that generation failed, with no error details;
 * - `abort`: the request's `signal` aborted the call.
 */
export type StopReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'abort'

/**
 * What a model call streams, in order: any number of `text-delta` and tool call events, then at most
 * one `usage`, then exactly one `finish`, always last. For each tool call: one `tool-call-start`,
 * any `tool-call-delta`s, then one `tool-call` with the complete, parsed arguments (tool calls may
 * interleave with each other when a provider streams them in parallel).
 *
 * A failure throws a `ProviderError` from the iterator instead (events yielded before it are partial
 * output). An abort never throws: the stream ends with `finish` `{ stopReason: 'abort' }`.
 */
export type ModelStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly toolCallId: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly toolCallId: string; readonly argumentsDelta: string }
  | ToolCallEvent
  | ({ readonly type: 'usage' } & Usage)
  | { readonly type: 'finish'; readonly stopReason: StopReason; readonly rawStopReason: string | undefined }

/**
 * A complete tool call. When the model's arguments are not a JSON object (broken JSON, an array, a
 * cut-off reply), `argumentsError` says why and `arguments` is `{}`: record the call with `{}` so
 * the thread stays valid, do not run the tool, and answer the call with a tool error carrying
 * `argumentsError` so the model can correct itself on the next call.
 */
export interface ToolCallEvent {
  readonly type: 'tool-call'
  readonly toolCallId: string
  readonly name: string
  /** The parsed arguments; `{}` when `argumentsError` is set. */
  readonly arguments: JsonObject
  /** The arguments exactly as the model produced them (JSON text; `''` when it sent none). */
  readonly argumentsText: string
  /** Why `argumentsText` is not a usable arguments object; absent when it is. */
  readonly argumentsError?: string
}

export type ModelStreamEventType = ModelStreamEvent['type']

/**
 * A streaming chat model. Implementations hold their credentials in a closure: nothing reachable
 * from the client object (or its errors) carries an API key.
 */
export interface ModelClient {
  /** The model id sent to the provider, e.g. `gpt-4o-mini`; the loop records it with each call. */
  readonly id: string
  readonly provider: ModelClientProvider
  /**
   * Streams the reply to one request. The returned iterable is one-shot and lazy: the request is
   * sent when iteration begins, and stopping early (break, return) cancels the response body.
   * Rate limits, server errors and network errors are retried with backoff only until the first
   * event is yielded, never after; the error thrown at the end is the last attempt's.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>
}
