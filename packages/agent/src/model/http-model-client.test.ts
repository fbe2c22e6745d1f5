import { describe, expect, it } from 'vitest'
import type { FakeStep } from '@threadlens/testing'
import { type FakeProviderServer, startFakeProviderServer, useFakeServers } from '@threadlens/testing/node'
import { askProjection, weatherTool } from '../testing/test-projections'
import { anthropic } from './anthropic'
import { ProviderError, ProviderNetworkError, ProviderServerError, RateLimitError } from './errors'
import type { ModelClient, ModelStreamEvent } from './model-client'
import { openAICompatible } from './openai-compatible'
import type { RetryOptions } from './retry'
import type { RetryNotice } from './stream-with-retries'

// Both clients run on one HTTP core; these misbehaving servers must meet both the same way. Every
// case counts the requests that reached the fake server, so the retry bound is checked, not assumed.
// Timeouts are generous (a loaded machine must not turn a 500 into a timeout) except where a
// timeout is the point.
const apiKey = 'sk-shared-core-0123456789abcdef'
const retry = {
  maxRetries: 2,
  retryDelayMs: 1,
  maxRetryDelayMs: 200,
  maxRetryTotalMs: 5_000,
  firstEventTimeoutMs: 3_000,
  idleTimeoutMs: 3_000,
} satisfies RetryOptions
const attempts = retry.maxRetries + 1

const providers = {
  'openai-compatible': (server: FakeProviderServer, onRetry: (notice: RetryNotice) => void, options: RetryOptions): ModelClient =>
    openAICompatible({ baseURL: server.baseURL, apiKey, model: 'gpt-4o-mini', onRetry, ...retry, ...options }),
  anthropic: (server: FakeProviderServer, onRetry: (notice: RetryNotice) => void, options: RetryOptions): ModelClient =>
    anthropic({ baseURL: server.baseURL, apiKey, model: 'claude-sonnet-4-5', onRetry, ...retry, ...options }),
}

const htmlPage = '<!doctype html><html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>'

/** A provider error class: `instanceof` and its own cross-copy `isInstance`. */
type ErrorClass = (abstract new (...args: never[]) => ProviderError) & { isInstance(value: unknown): boolean }

interface Scenario {
  readonly name: string
  /** Answered in order; then `whenEmpty`, as often as asked. */
  readonly steps?: readonly FakeStep[]
  readonly whenEmpty?: FakeStep
  readonly options?: RetryOptions
  readonly requests: number
  /** The reply's text when the call succeeds. */
  readonly text?: string
  /** The typed error the call ends with, and fields it must carry. */
  readonly error?: { readonly type: ErrorClass; readonly fields: Readonly<Record<string, unknown>>; readonly says?: string }
  /** Text that must have streamed before the error. */
  readonly partialText?: string
  readonly retryDelays?: readonly number[]
}

const scenarios: readonly Scenario[] = [
  {
    name: '5xx forever: maxRetries + 1 requests, then the ProviderServerError',
    whenEmpty: { fail: 'server' },
    requests: attempts,
    error: { type: ProviderServerError, fields: { status: 500, retryable: true } },
  },
  {
    name: '429 with Retry-After, then a reply: waits exactly as asked, 2 requests',
    steps: [{ fail: 'rate-limit', headers: { 'retry-after': '0.02' } }, { text: 'made it' }],
    requests: 2,
    text: 'made it',
    retryDelays: [20],
  },
  {
    name: '429 with Retry-After forever: maxRetries + 1 requests, then the RateLimitError with its wait',
    whenEmpty: { fail: 'rate-limit', headers: { 'retry-after': '0.01' } },
    requests: attempts,
    error: { type: RateLimitError, fields: { status: 429, retryAfterMs: 10, quotaExceeded: false } },
    retryDelays: [10, 10],
  },
  {
    name: '429 with a Retry-After past maxRetryDelayMs: 1 request, the wait left to the app',
    whenEmpty: { fail: 'rate-limit', headers: { 'retry-after': '120' } },
    requests: 1,
    error: { type: RateLimitError, fields: { status: 429, retryAfterMs: 120_000 } },
  },
  {
    name: 'an HTML error page instead of a JSON error (502): retried as a 5xx, named as a page',
    whenEmpty: { fail: 'raw', status: 502, body: htmlPage, headers: { 'content-type': 'text/html' } },
    requests: attempts,
    error: { type: ProviderServerError, fields: { status: 502, retryable: true }, says: 'an HTML page instead of an API error ("502 Bad Gateway")' },
  },
  {
    name: 'an HTML page with 200 instead of the stream: 1 request, not retried',
    whenEmpty: { fail: 'raw', status: 200, body: htmlPage, headers: { 'content-type': 'text/html; charset=utf-8' } },
    requests: 1,
    error: { type: ProviderServerError, fields: { retryable: false }, says: 'got an HTML page: is the baseURL an API endpoint' },
  },
  {
    name: 'a stream cut half-way: 1 request (output was seen), ProviderNetworkError after the partial text',
    steps: [{ text: 'Half an answer about the harbour', end: 'disconnect' }, { text: 'never sent' }],
    requests: 1,
    error: { type: ProviderNetworkError, fields: { status: undefined, retryable: true } },
    partialText: 'Half an answer about the harbour',
  },
  {
    name: 'a stream cut before any output, forever: retried, maxRetries + 1 requests',
    whenEmpty: { end: 'disconnect' },
    requests: attempts,
    error: { type: ProviderNetworkError, fields: { status: undefined } },
  },
  {
    name: 'a first byte slower than firstEventTimeoutMs, forever: maxRetries + 1 requests, then ProviderNetworkError',
    whenEmpty: { text: 'too late', firstByteDelayMs: 5_000 },
    options: { firstEventTimeoutMs: 150 },
    requests: attempts,
    error: { type: ProviderNetworkError, fields: { status: undefined }, says: 'no response within 150 ms' },
  },
  {
    name: 'a slow first byte within firstEventTimeoutMs: 1 request, the reply',
    whenEmpty: { text: 'late but fine', firstByteDelayMs: 60 },
    requests: 1,
    text: 'late but fine',
  },
]

const table = Object.entries(providers).flatMap(([provider, client]) => scenarios.map((scenario) => ({ provider, client, scenario })))

const track = useFakeServers()

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const events: ModelStreamEvent[] = []
  try {
    for await (const event of stream) events.push(event)
  } catch (error) {
    return { events, error }
  }
  return { events, error: undefined }
}

const textOf = (events: readonly ModelStreamEvent[]): string => events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')

describe('the shared HTTP client core, against misbehaving servers (both providers, one table)', () => {
  it.each(table)('$provider: $scenario.name', async ({ client, scenario }) => {
    const server = track(await startFakeProviderServer({ apiKey, ...(scenario.whenEmpty === undefined ? {} : { whenEmpty: scenario.whenEmpty }) }))
    server.enqueue(...(scenario.steps ?? []))
    const notices: RetryNotice[] = []
    const { events, error } = await collect(
      client(server, (notice) => notices.push(notice), scenario.options ?? {}).stream({ projection: askProjection(), tools: [weatherTool] }),
    )

    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(scenario.requests)
    expect(notices).toHaveLength(scenario.requests - 1)
    if (scenario.retryDelays !== undefined) expect(notices.map((notice) => notice.delayMs)).toEqual(scenario.retryDelays)
    if (scenario.error === undefined) {
      expect(error).toBeUndefined()
      expect(textOf(events)).toBe(scenario.text)
      expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'stop' })
      return
    }
    expect(error).toBeInstanceOf(scenario.error.type)
    expect(scenario.error.type.isInstance(error)).toBe(true)
    expect(error).toMatchObject(scenario.error.fields)
    const message = (error as Error).message
    if (scenario.error.says !== undefined) expect(message).toContain(scenario.error.says)
    expect(message).not.toContain(apiKey)
    expect(textOf(events)).toBe(scenario.partialText ?? '')
  })
})
