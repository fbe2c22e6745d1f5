import { describe, expect, it } from 'vitest'
import { ProviderAuthError, type ProviderErrorDetails, ProviderServerError, RateLimitError } from './errors'
import { retryAfterMs } from './retry-after'
import { retryDelay, retrySettings, sleep } from './retry'

const now = Date.parse('2026-11-22T12:00:00Z')
const details: ProviderErrorDetails = {
  provider: 'openai-compatible',
  model: 'm',
  status: 429,
  providerMessage: undefined,
  code: undefined,
  requestId: undefined,
}

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after in seconds or as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250.5', 'retry-after': '9' }), now)).toBe(250.5)
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000)
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500)
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 12:00:07 GMT' }), now)).toBe(7000)
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 11:00:00 GMT' }), now)).toBe(0)
  })

  it("reads OpenAI's reset durations, preferring the limit that is used up", () => {
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset-requests': '1m30.5s' }), now)).toBe(90_500)
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset-tokens': '20ms' }), now)).toBe(20)
    const both = { 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '1s' }
    expect(retryAfterMs(new Headers(both), now)).toBe(360_000)
    expect(retryAfterMs(new Headers({ ...both, 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-remaining-requests': '12' }), now)).toBe(1000)
  })

  it("reads Anthropic's reset timestamps", () => {
    expect(retryAfterMs(new Headers({ 'anthropic-ratelimit-tokens-reset': '2026-11-22T12:00:03Z' }), now)).toBe(3000)
  })

  it('is undefined when no header says, or a header is garbage', () => {
    expect(retryAfterMs(new Headers(), now)).toBeUndefined()
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon', 'retry-after-ms': '-5', 'x-ratelimit-reset-tokens': 'later' }), now)).toBeUndefined()
  })
})

describe('retryDelay', () => {
  const settings = retrySettings({ maxRetries: 3, retryDelayMs: 100, maxRetryDelayMs: 1000 })
  const server = new ProviderServerError({ ...details, status: 500 })

  it('doubles the delay per retry, with jitter between half and all of it, up to the cap', () => {
    expect([0, 1, 2].map((retry) => retryDelay(server, retry, settings, () => 0))).toEqual([50, 100, 200])
    expect([0, 1, 2].map((retry) => retryDelay(server, retry, settings, () => 0.999999))).toEqual([
      expect.closeTo(100, 3),
      expect.closeTo(200, 3),
      expect.closeTo(400, 3),
    ])
    const capped = retrySettings({ maxRetries: 10, retryDelayMs: 100, maxRetryDelayMs: 1000 })
    expect(retryDelay(server, 8, capped, () => 0)).toBe(500)
  })

  it('waits exactly what retry-after says, and gives up when it says longer than the cap', () => {
    expect(retryDelay(new RateLimitError(details, 700, false), 0, settings, () => 0.5)).toBe(700)
    expect(retryDelay(new RateLimitError(details, 1001, false), 0, settings, () => 0.5)).toBeUndefined()
    expect(retryDelay(new RateLimitError(details, undefined, false), 0, settings, () => 0)).toBe(50)
  })

  it('never retries errors that are not retryable, or after maxRetries', () => {
    expect(retryDelay(new ProviderAuthError({ ...details, status: 401 }), 0, settings, () => 0)).toBeUndefined()
    expect(retryDelay(new RateLimitError(details, 10, true), 0, settings, () => 0)).toBeUndefined()
    expect(retryDelay(server, 3, settings, () => 0)).toBeUndefined()
    expect(retryDelay(server, 0, retrySettings({ maxRetries: 0 }), () => 0)).toBeUndefined()
  })

  it('defaults to 2 retries from 500 ms, capped at 60 s', () => {
    expect(retrySettings({})).toEqual({
      maxRetries: 2,
      retryDelayMs: 500,
      maxRetryDelayMs: 60_000,
      maxRetryTotalMs: 120_000,
      firstEventTimeoutMs: 120_000,
      idleTimeoutMs: 60_000,
    })
  })
})

describe('sleep', () => {
  it('resolves false at once for an aborted signal, and early when the signal aborts', async () => {
    expect(await sleep(10_000, AbortSignal.abort())).toBe(false)
    const controller = new AbortController()
    const sleeping = sleep(10_000, controller.signal)
    controller.abort()
    expect(await sleeping).toBe(false)
    expect(await sleep(1, undefined)).toBe(true)
  })
})
