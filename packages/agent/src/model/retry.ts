import { int, number, optional, type Shape } from '@threadlens/core/internal'
import {
  DEFAULT_FIRST_EVENT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_MAX_RETRY_TOTAL_MS,
  DEFAULT_RETRY_DELAY_MS,
} from './constants'
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
  /**
   * The longest time, in ms, one call may spend on failed attempts and the waits between them: a
   * retry whose wait would end past it is not made, and the last error is thrown. Default: `120000`.
   */
  readonly maxRetryTotalMs?: number
  /**
   * How long, in ms, to wait for a response's first event (headers and the first streamed chunk)
   * before the attempt counts as failed (a retryable `ProviderNetworkError`). Default: `120000`.
   */
  readonly firstEventTimeoutMs?: number
  /**
   * How long, in ms, a streaming response may stay silent between two events before the call is
   * cut off as stalled (a `ProviderNetworkError`; retried only if nothing had streamed). Default: `60000`.
   */
  readonly idleTimeoutMs?: number
}

export const retryOptionsShape: Shape<RetryOptions> = {
  maxRetries: optional(int({ min: 0 })),
  retryDelayMs: optional(number({ min: 0 })),
  maxRetryDelayMs: optional(number({ min: 0 })),
  maxRetryTotalMs: optional(number({ min: 0 })),
  firstEventTimeoutMs: optional(number({ above: 0 })),
  idleTimeoutMs: optional(number({ above: 0 })),
}

export interface RetrySettings {
  readonly maxRetries: number
  readonly retryDelayMs: number
  readonly maxRetryDelayMs: number
  readonly maxRetryTotalMs: number
  readonly firstEventTimeoutMs: number
  readonly idleTimeoutMs: number
}

export function retrySettings(options: RetryOptions): RetrySettings {
  return {
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    maxRetryTotalMs: options.maxRetryTotalMs ?? DEFAULT_MAX_RETRY_TOTAL_MS,
    firstEventTimeoutMs: options.firstEventTimeoutMs ?? DEFAULT_FIRST_EVENT_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  }
}

/** The most HTTP requests one model call makes: the first attempt and every retry. */
export function maxAttemptsOf(settings: Pick<RetrySettings, 'maxRetries'>): number {
  return settings.maxRetries + 1
}

/**
 * How long to wait before retry number `retryIndex` (0 for the first retry), or `undefined` when
 * the error must be thrown now: not retryable, retries used up, or a `retry-after` longer than
 * `maxRetryDelayMs`. `random` returns a number in [0, 1), for the jitter.
 */
export function retryDelay(error: ProviderError, retryIndex: number, settings: RetrySettings, random: () => number): number | undefined {
  if (!error.retryable || retryIndex >= settings.maxRetries) return undefined
  if (RateLimitError.isInstance(error) && error.retryAfterMs !== undefined) {
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
