import { ProviderError } from './errors'
import type { ModelStreamEvent } from './model-client'
import { maxAttemptsOf, type RetrySettings, retryDelay, sleep } from './retry'

/** One try at a model call. It throws `ProviderError`s, and anything at all once `signal` aborts. */
export type StreamAttempt = (signal: AbortSignal) => AsyncGenerator<ModelStreamEvent, void, undefined>

/** Told before each retry, e.g. to show "rate limited, retrying in 3 s (2/3)". */
export interface RetryNotice {
  readonly error: ProviderError
  /** 1 for the first retry. */
  readonly retry: number
  /** The attempt about to be made (2 for the first retry) and the most there will be. */
  readonly attempt: number
  readonly maxAttempts: number
  readonly delayMs: number
  /** When the next attempt starts, in ms since the epoch: for a countdown. */
  readonly retryAt: number
}

export interface StreamWithRetriesOptions {
  readonly signal: AbortSignal | undefined
  readonly retry: RetrySettings
  /** Every notice goes to each of these (the client's option and the request's). */
  readonly onRetry: readonly (((notice: RetryNotice) => void) | undefined)[] | ((notice: RetryNotice) => void) | undefined
  /** Builds the error for an attempt that went silent: `phase` says whether anything had arrived. */
  readonly timeoutError: (problem: string) => ProviderError
  readonly random?: () => number
  /** Default: `Date.now`. */
  readonly now?: () => number
}

const abortFinish: ModelStreamEvent = Object.freeze({ type: 'finish', stopReason: 'abort', rawStopReason: undefined })

/** A timer that aborts an attempt after a silence; `touch` restarts it with the next limit. */
class Watchdog {
  readonly controller = new AbortController()
  timedOut: string | undefined
  #timer: ReturnType<typeof setTimeout> | undefined
  readonly #outer: AbortSignal | undefined
  readonly #onOuterAbort = (): void => this.controller.abort(this.#outer?.reason)

  constructor(outer: AbortSignal | undefined) {
    this.#outer = outer
    if (outer?.aborted === true) this.controller.abort(outer.reason)
    else outer?.addEventListener('abort', this.#onOuterAbort, { once: true })
  }

  touch(ms: number, problem: string): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.timedOut = problem
      this.controller.abort(new DOMException(problem, 'TimeoutError'))
    }, ms)
  }

  stop(): void {
    clearTimeout(this.#timer)
    this.#outer?.removeEventListener('abort', this.#onOuterAbort)
  }
}

/**
 * Runs attempts until one yields its first event, retrying retryable `ProviderError`s with backoff;
 * from the first event on, the stream is passed through and never retried (the caller has seen
 * output). Bounded by construction: at most `maxRetries + 1` attempts, none started after
 * `maxRetryTotalMs`, each cut off after `firstEventTimeoutMs` without a first event or
 * `idleTimeoutMs` of silence. Any failure while `signal` is aborted becomes a final `finish`
 * `{ stopReason: 'abort' }`. Stopping early returns the attempt, which cancels its response body.
 */
export async function* streamWithRetries(
  attempt: StreamAttempt,
  options: StreamWithRetriesOptions,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { signal, retry } = options
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const listeners = (Array.isArray(options.onRetry) ? options.onRetry : [options.onRetry]) as readonly (((notice: RetryNotice) => void) | undefined)[]
  const maxAttempts = maxAttemptsOf(retry)
  const started = now()
  // A function, not a narrowed property read: the signal can abort during any await.
  const aborted = (): boolean => signal?.aborted === true
  for (let retryIndex = 0; retryIndex < maxAttempts; retryIndex += 1) {
    if (aborted()) {
      yield abortFinish
      return
    }
    const watchdog = new Watchdog(signal)
    watchdog.touch(retry.firstEventTimeoutMs, `no response within ${retry.firstEventTimeoutMs} ms`)
    const iterator = attempt(watchdog.controller.signal)
    let first: IteratorResult<ModelStreamEvent, void>
    try {
      first = await iterator.next()
    } catch (caught) {
      watchdog.stop()
      if (aborted()) {
        yield abortFinish
        return
      }
      const error = watchdog.timedOut === undefined ? caught : options.timeoutError(watchdog.timedOut)
      if (!ProviderError.isInstance(error)) throw error
      const delayMs = retryDelay(error, retryIndex, retry, random)
      // A wait that would end past the total cap is not made: the caller hears now, not later.
      if (delayMs === undefined || now() + delayMs - started > retry.maxRetryTotalMs) throw error
      const notice: RetryNotice = { error, retry: retryIndex + 1, attempt: retryIndex + 2, maxAttempts, delayMs, retryAt: now() + delayMs }
      for (const listener of listeners) listener?.(notice)
      if (!(await sleep(delayMs, signal))) {
        yield abortFinish
        return
      }
      continue
    }
    try {
      if (first.done === true) return
      yield first.value
      for (;;) {
        watchdog.touch(retry.idleTimeoutMs, `the reply stalled: no data for ${retry.idleTimeoutMs} ms`)
        const next = await iterator.next()
        if (next.done === true) return
        yield next.value
      }
    } catch (error) {
      if (aborted()) {
        yield abortFinish
        return
      }
      if (watchdog.timedOut !== undefined) throw options.timeoutError(watchdog.timedOut)
      throw error
    } finally {
      watchdog.stop()
      await iterator.return(undefined)
    }
  }
}
