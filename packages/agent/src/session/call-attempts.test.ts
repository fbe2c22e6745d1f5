import { createTokenCounter, definePolicy, replayCall } from '@threadlens/core'
import { callTrace } from '@threadlens/core/calls'
import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { anthropic } from '../model/anthropic'
import type { ModelClient } from '../model/model-client'
import { openAICompatible } from '../model/openai-compatible'
import type { RetryOptions } from '../model/retry'
import { type FakeProviderServer, startFakeProviderServer, useFakeServers } from '@threadlens/testing/node'
import type { FakeStep } from '@threadlens/testing'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'

// Every attempt on record: answered calls on the thread (meta.call), the rest in the call log.
const apiKey = 'sk-attempts-0123456789abcdefghij'
// Repeated on purpose: the same RetryOptions fields as packages/agent/src/session/adversarial-providers.test.ts (each
// suite tunes its own delays and timeouts).
const retry: RetryOptions = {
  maxRetries: 2,
  retryDelayMs: 5,
  maxRetryDelayMs: 50,
  maxRetryTotalMs: 5_000,
  firstEventTimeoutMs: 2_000,
  idleTimeoutMs: 2_000,
}
type Provider = 'openai' | 'anthropic'

const counter = await createTokenCounter('o200k_base')

const track = useFakeServers()

function clientFor(provider: Provider, server: FakeProviderServer, key = apiKey): ModelClient {
  const shared = { baseURL: server.baseURL, apiKey: key, ...retry }
  return provider === 'openai' ? openAICompatible({ ...shared, model: 'gpt-4o-mini' }) : anthropic({ ...shared, model: 'claude-sonnet-4-5' })
}

async function run(provider: Provider, script: readonly FakeStep[], options: { key?: string; abortAfterMs?: number } = {}) {
  const server = await startFakeProviderServer({ apiKey, script })
  track(server)
  const stores = createMemoryBackedStores()
  const { id } = await stores.threads.create()
  let clock = 1_000
  const session = createSession({
    threads: stores.threads,
    threadId: id,
    model: clientFor(provider, server, options.key),
    policy: definePolicy({ tokenizer: 'o200k_base', systemPrompt: 'Be brief.' }),
    counter,
    callLog: stores.calls,
    now: () => (clock += 7),
  })
  const events: SessionEvent[] = []
  const controller = new AbortController()
  if (options.abortAfterMs !== undefined) setTimeout(() => controller.abort(), options.abortAfterMs)
  for await (const event of session.send('How far is the moon?', { signal: controller.signal })) events.push(event)
  session.close()
  const thread = await stores.threads.load(id)
  const attempts = await stores.calls.attempts(id)
  return { server, thread, attempts, events, trace: callTrace(thread.entries, attempts) }
}

describe.each<Provider>(['openai', 'anthropic'])('every attempt on record (%s)', (provider) => {
  it('a call retried twice: two retried attempts in the log, the answer with its record on the thread, all replayable', async () => {
    const { server, thread, attempts, trace } = await run(provider, [
      { fail: 'rate-limit' },
      { fail: 'server' },
      { text: 'About 384,000 km.', inputTokens: 123, cachedInputTokens: 3 },
    ])
    expect(server.requests).toHaveLength(3)
    // The thread holds what it held before: the user's message and the one reply, no trace of the failures.
    expect(thread.entries.map((entry) => entry.kind === 'message' && entry.payload.role)).toEqual(['user', 'assistant'])
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.error?.name, attempt.error?.status])).toEqual([
      [1, 'retried', 'RateLimitError', 429],
      [2, 'retried', 'ProviderServerError', 500],
    ])
    const reply = thread.entries[1]
    const record = reply?.meta?.call
    expect(record).toMatchObject({ attempts: 3, stopReason: 'stop', cachedInputTokens: 3 })
    // The provider's count beside the local one.
    expect(record?.inputTokens).toBe(123)
    expect(record?.localInputTokens).toBeGreaterThan(0)
    expect(record?.startedAt).toBeGreaterThan(0)
    expect(record?.durationMs).toBeGreaterThan(0)
    expect(record?.firstTokenMs).toBeGreaterThanOrEqual(0)
    expect(trace.map((row) => [row.attempt, row.status])).toEqual([
      [1, 'retried'],
      [2, 'retried'],
      [3, 'ok'],
    ])
    // Each attempt sent the same messages, and each replays to them from the thread and its record.
    for (const row of trace) {
      const replayed = replayCall(thread.entries, row.record, { counter })
      expect(replayed.verified).toBe(true)
      expect(replayed.projection.meta.tokens.total).toBe(row.record.localInputTokens)
    }
    // Nothing of the key anywhere in what was kept.
    expect(JSON.stringify(attempts)).not.toContain(apiKey.slice(8, 20))
  })

  it('a call that fails for good: one failed attempt in the log with its class and scrubbed message; the thread only has the question', async () => {
    const { server, thread, attempts, trace, events } = await run(provider, [], { key: `${apiKey}-wrong` })
    expect(server.requests).toHaveLength(1)
    expect(events.some((event) => event.type === 'error')).toBe(true)
    expect(thread.entries).toHaveLength(1)
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      status: 'failed',
      error: { name: 'ProviderAuthError', status: 401 },
      record: { stopReason: 'error' },
    })
    expect(JSON.stringify(attempts)).not.toContain(apiKey.slice(6, 16))
    expect(trace.map((row) => row.status)).toEqual(['failed'])
    // It replays without any record on the thread: the attempt carries its own policy and tools.
    expect(replayCall(thread.entries, attempts[0]?.record ?? '', { counter }).verified).toBe(true)
  })

  it('an aborted call is on record as aborted', async () => {
    const { thread, trace } = await run(provider, [{ text: 'slow', firstByteDelayMs: 1_000 }], { abortAfterMs: 50 })
    expect(trace.map((row) => row.status)).toEqual(['aborted'])
    expect(thread.entries.filter((entry) => entry.meta?.call !== undefined)).toHaveLength(trace.filter((row) => row.seq !== undefined).length)
  })
})
