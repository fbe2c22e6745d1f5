import { ProviderError } from './errors'
import type { ModelStreamEvent } from './model-client'
import { type RetrySettings, retryDelay, sleep } from './retry'

/** One try at a model call. It throws `ProviderError`s, and anything at all once `signal` aborts. */
export type StreamAttempt = (signal: AbortSignal | undefined) => AsyncGenerator<ModelStreamEvent, void, undefined>

/** Told before each retry, e.g. to show "rate limited, retrying in 3 s". */
export interface RetryNotice {
  readonly error: ProviderError
  /** 1 for the first retry. */
  readonly retry: number
  readonly delayMs: number
}

export interface StreamWithRetriesOptions {
  readonly signal: AbortSignal | undefined
  readonly retry: RetrySettings
  readonly onRetry: ((notice: RetryNotice) => void) | undefined
  readonly random?: () => number
}

const abortFinish: ModelStreamEvent = Object.freeze({ type: 'finish', stopReason: 'abort', rawStopReason: undefined })

/**
 * Runs attempts until one yields its first event, retrying retryable `ProviderError`s with backoff;
 * from the first event on, the stream is passed through and never retried (the caller has seen
 * output). Any failure while `signal` is aborted becomes a final `finish` `{ stopReason: 'abort' }`.
 * Stopping early returns the attempt, which cancels its response body.
 */
export async function* streamWithRetries(attempt: StreamAttempt, options: StreamWithRetriesOptions): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { signal } = options
  const random = options.random ?? Math.random
  // A function, not a narrowed property read: the signal can abort during any await.
  const aborted = (): boolean => signal?.aborted === true
  for (let retryIndex = 0; ; retryIndex += 1) {
    if (aborted()) {
      yield abortFinish
      return
    }
    const iterator = attempt(signal)
    let first: IteratorResult<ModelStreamEvent, void>
    try {
      first = await iterator.next()
    } catch (error) {
      if (aborted()) {
        yield abortFinish
        return
      }
      if (!(error instanceof ProviderError)) throw error
      const delayMs = retryDelay(error, retryIndex, options.retry, random)
      if (delayMs === undefined) throw error
      options.onRetry?.({ error, retry: retryIndex + 1, delayMs })
      if (!(await sleep(delayMs, signal))) {
        yield abortFinish
        return
      }
      continue
    }
    if (first.done === true) return
    try {
      yield first.value
      for (;;) {
        const next = await iterator.next()
        if (next.done === true) return
        yield next.value
      }
    } catch (error) {
      if (aborted()) {
        yield abortFinish
        return
      }
      throw error
    } finally {
      await iterator.return(undefined)
    }
  }
}
