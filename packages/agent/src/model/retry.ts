import { z } from 'zod'
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_DELAY_MS } from './constants'
import { type ProviderError, RateLimitError } from './errors'

/** How a client retries rate limits, server errors and network errors that happen before anything streamed. */
export interface RetryOptions {
  /** Retries after the first attempt; `0` turns retrying off. Default: `2`. */
  readonly maxRetries?: number
  /** The first backoff delay in ms; it doubles with each retry, with jitter (between half and all of it). Default: `500`. */
  readonly retryDelayMs?: number
  /**
   * The longest backoff delay in ms. A `retry-after` the provider sends is honoured exactly up to
   * this; a longer one is not waited for: the `RateLimitError` is thrown at once with its
   * `retryAfterMs`, for the app to show. Default: `60000`.
   */
  readonly maxRetryDelayMs?: number
}

export const retryOptionsShape = {
  maxRetries: z.number().int().min(0).exactOptional(),
  retryDelayMs: z.number().min(0).exactOptional(),
  maxRetryDelayMs: z.number().min(0).exactOptional(),
}

export interface RetrySettings {
  readonly maxRetries: number
  readonly retryDelayMs: number
  readonly maxRetryDelayMs: number
}

export function retrySettings(options: RetryOptions): RetrySettings {
  return {
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
  }
}

/**
 * How long to wait before retry number `retryIndex` (0 for the first retry), or `undefined` when
 * the error must be thrown now: not retryable, retries used up, or a `retry-after` longer than
 * `maxRetryDelayMs`. `random` returns a number in [0, 1), for the jitter.
 */
export function retryDelay(error: ProviderError, retryIndex: number, settings: RetrySettings, random: () => number): number | undefined {
  if (!error.retryable || retryIndex >= settings.maxRetries) return undefined
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= settings.maxRetryDelayMs ? error.retryAfterMs : undefined
  }
  const ceiling = Math.min(settings.maxRetryDelayMs, settings.retryDelayMs * 2 ** retryIndex)
  // "Equal jitter": never less than half the delay, so clients that failed together spread out without hammering.
  return ceiling / 2 + random() * (ceiling / 2)
}

/** Resolves after `ms`, or early (with `false`) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve(false)
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      resolve(false)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
