import { createTokenCounter, definePolicy, type EntryInput } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { anthropic } from '../model/anthropic'
import {
  ContextTooLongError,
  ProviderAuthError,
  ProviderNetworkError,
  ProviderRequestError,
  ProviderServerError,
  RateLimitError,
} from '../model/errors'
import type { FetchFunction } from '../model/http-stream'
import type { ModelClient } from '../model/model-client'
import { openAICompatible } from '../model/openai-compatible'
import type { RetryOptions } from '../model/retry'
import { type FakeProviderServer, type FakeProviderServerOptions, startFakeProviderServer, useFakeServers } from '@threadlens/testing/node'
import type { FakeStep } from '@threadlens/testing'
import { defineTool } from '../tools/define-tool'
import { maxModelCalls } from './context-recovery'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'

// Every case runs against a local fake server that counts what reaches it. The retry policy is the
// real one with small numbers, so the documented bound is checked, not a lucky timing.
const apiKey = 'sk-adversarial-0123456789abcdef'
// The stream timeouts leave room for a loaded CI machine (a late but healthy first byte must not
// become an extra request and break an exact count); the timeout cases wait well past them.
// Repeated on purpose: the same RetryOptions fields as packages/agent/src/session/call-attempts.test.ts (each suite
// tunes its own delays and timeouts).
const retry: RetryOptions = {
  maxRetries: 2,
  retryDelayMs: 5,
  maxRetryDelayMs: 200,
  maxRetryTotalMs: 5_000,
  firstEventTimeoutMs: 1_500,
  idleTimeoutMs: 1_000,
}
const maxIterations = 3
const attemptsPerCall = (retry.maxRetries ?? 0) + 1
/** The documented bound: (maxIterations + context recoveries) model calls, each at most maxRetries + 1 requests. */
const maxRequests = maxModelCalls(maxIterations) * attemptsPerCall
/** Generous for a loaded 2-core machine; the point is "ends", not "fast". */
const timeLimitMs = 8_000

const counter = await createTokenCounter('o200k_base')

// Repeated on purpose: same setup shape as packages/agent/src/session/create-session.test.ts (each suite defines the
// tool its cases call).
const track = useFakeServers()

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string().min(1) }),
  idempotent: true,
  execute: ({ word }) => ({ word, meaning: `the meaning of ${word}` }),
})

type Provider = 'openai' | 'anthropic'

function clientFor(provider: Provider, server: FakeProviderServer, options: { apiKey?: string; fetch?: FetchFunction } = {}): ModelClient {
  const shared = {
    baseURL: server.baseURL,
    apiKey: options.apiKey ?? apiKey,
    ...retry,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  }
  return provider === 'openai' ? openAICompatible({ ...shared, model: 'gpt-4o-mini' }) : anthropic({ ...shared, model: 'claude-sonnet-4-5' })
}

// Twenty long turns: enough for a compaction to summarize something.
function history(turns: number): EntryInput[] {
  const inputs: EntryInput[] = []
  for (let turn = 0; turn < turns; turn += 1) {
    inputs.push({ kind: 'message', payload: { role: 'user', content: `Question ${turn}: ${'tell me about the harbour and its boats '.repeat(12)}` } })
    inputs.push({
      kind: 'message',
      payload: { role: 'assistant', content: `Answer ${turn}: ${'the harbour holds fishing boats and ferries '.repeat(12)}` },
    })
  }
  return inputs
}

interface Outcome {
  readonly events: SessionEvent[]
  readonly error: unknown
  readonly requests: number
  readonly elapsedMs: number
  readonly session: ReturnType<typeof createSession>
  readonly unresolved: number
  readonly threadLoads: boolean
  readonly server: FakeProviderServer
}

async function run(
  provider: Provider,
  serverOptions: FakeProviderServerOptions,
  options: { turns?: number; apiKey?: string; fetch?: (server: FakeProviderServer) => FetchFunction; countFetches?: () => number } = {},
): Promise<Outcome> {
  const server = await startFakeProviderServer({ apiKey, ...serverOptions })
  track(server)
  const { threads } = createMemoryBackedStores({ counters: [counter] })
  const record = await threads.create({ title: 'adversarial' })
  if ((options.turns ?? 0) > 0) await threads.appendMany(record.id, history(options.turns ?? 0))
  const model = clientFor(provider, server, {
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch(server) }),
  })
  const session = createSession({
    threads,
    threadId: record.id,
    model,
    tools: [lookup],
    counter,
    maxIterations,
    policy: definePolicy({ maxInputTokens: 8192 }),
  })
  const started = performance.now()
  const events: SessionEvent[] = []
  for await (const event of session.send('What is a harbour?')) events.push(event)
  const elapsedMs = performance.now() - started
  const thread = await threads.load(record.id)
  const error = events.find((event) => event.type === 'error')
  return {
    events,
    error: error?.type === 'error' ? error.error : undefined,
    requests: options.countFetches?.() ?? server.requests.filter((request) => request.method === 'POST').length,
    elapsedMs,
    session,
    unresolved: thread.index.unresolvedToolCallIds.size,
    threadLoads: thread.entries.length > 0,
    server,
  }
}

function expectSettled(outcome: Outcome, bound: number): void {
  expect(outcome.requests).toBeLessThanOrEqual(bound)
  expect(outcome.requests).toBeLessThanOrEqual(maxRequests)
  expect(outcome.session.status).toBe('idle')
  expect(outcome.session.getSnapshot().retry).toBeUndefined()
  expect(outcome.unresolved).toBe(0)
  expect(outcome.threadLoads).toBe(true)
  expect(outcome.elapsedMs).toBeLessThan(timeLimitMs)
}

const openAIFrame = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
const anthropicFrame = (data: Record<string, unknown> & { type: string }): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
const anthropicStart = anthropicFrame({
  type: 'message_start',
  message: {
    id: 'msg_x',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [],
    stop_reason: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  },
})
const anthropicText = (text: string): string[] => [
  anthropicFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  anthropicFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
]

/** Frames for a reply that starts normally ("Hel…"), per provider. */
function started(provider: Provider): string[] {
  return provider === 'openai' ? [openAIFrame({ role: 'assistant', content: 'Hel' })] : [anthropicStart, ...anthropicText('Hel')]
}

/** A frame cut off in the middle of its JSON. */
function halfFrame(provider: Provider): string {
  return provider === 'openai'
    ? 'data: {"id":"chatcmpl-x","choices":[{"index":0,"delta":{"content":"lo th'
    : 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"del'
}

/** A complete reply without its terminator (`[DONE]` / `message_stop`). */
function finishedButOpen(provider: Provider): string[] {
  return provider === 'openai'
    ? [openAIFrame({ role: 'assistant', content: 'Hello.' }), openAIFrame({}, 'stop')]
    : [
        anthropicStart,
        ...anthropicText('Hello.'),
        anthropicFrame({ type: 'content_block_stop', index: 0 }),
        anthropicFrame({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      ]
}

describe.each<Provider>(['openai', 'anthropic'])('%s client against a misbehaving server: bounded, typed, idle, thread intact', (provider) => {
  it('context too long, forever: compacts once, projects within the named limit once, then stops with ContextTooLongError', async () => {
    const outcome = await run(provider, { whenEmpty: { fail: 'context-too-long' } }, { turns: 20 })
    expect(outcome.error).toBeInstanceOf(ContextTooLongError)
    expect((outcome.error as ContextTooLongError).message).toMatch(/tokens requested, limit \d+/)
    expect(outcome.events.some((event) => event.type === 'compaction-end')).toBe(true)
    expect(outcome.events.some((event) => event.type === 'server-limit-learn')).toBe(true)
    expect(outcome.requests).toBe(3)
    expectSettled(outcome, 3)
  })

  it("context too long naming the server's real window: learns it, projects within it, and the next call fits", async () => {
    // The server's window (its own estimate of prompt tokens) is far below the policy's 8,192.
    const outcome = await run(provider, { maxContextTokens: 2_500, whenEmpty: { text: 'Fits now.' } }, { turns: 20 })
    expect(outcome.error).toBeUndefined()
    const learned = outcome.events.find((event) => event.type === 'server-limit-learn')
    expect(learned).toMatchObject({ limitTokens: 2_500 })
    expect(outcome.session.getSnapshot().serverLimit?.maxInputTokens).toBeLessThan(2_500)
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'Fits now.' })
    expectSettled(outcome, 3)
    // Remembered for the session: the next request projects within it from the start.
    const before = outcome.server.requests.length
    const next: SessionEvent[] = []
    for await (const event of outcome.session.send('And the boats?')) next.push(event)
    expect(next.at(-1)).toMatchObject({ type: 'done' })
    expect(outcome.server.requests.length - before).toBe(1)
  })

  it.each([
    ['context too long on a thread with nothing to compact', { fail: 'context-too-long' }, ContextTooLongError],
    [
      '400 invalid request',
      {
        fail: 'raw',
        status: 400,
        body: JSON.stringify({ error: { message: 'Invalid value for temperature', type: 'invalid_request_error' } }),
        headers: { 'content-type': 'application/json' },
      },
      ProviderRequestError,
    ],
    ['404 unknown model', { fail: 'model-not-found' }, ProviderRequestError],
  ] as const)('%s: stops after 1 request, with its typed error', async (_name, step, error) => {
    const outcome = await run(provider, { whenEmpty: step as FakeStep })
    expect(outcome.error).toBeInstanceOf(error)
    expectSettled(outcome, 1)
  })

  it('401 wrong key: 1 request, ProviderAuthError that quotes no part of the key', async () => {
    const wrongKey = 'sk-wrong-key-9876543210fedcba'
    const outcome = await run(provider, {}, { apiKey: wrongKey })
    expect(outcome.error).toBeInstanceOf(ProviderAuthError)
    const said = JSON.stringify({
      message: (outcome.error as Error).message,
      events: outcome.events.map((event) => (event.type === 'error' ? String(event.error) : event.type)),
    })
    for (let start = 0; start + 8 <= wrongKey.length; start += 1) expect(said).not.toContain(wrongKey.slice(start, start + 8))
    expectSettled(outcome, 1)
  })

  it('429 forever without Retry-After: maxRetries + 1 requests, a retry-wait event per retry, RateLimitError', async () => {
    const outcome = await run(provider, { whenEmpty: { fail: 'rate-limit' } })
    expect(outcome.error).toBeInstanceOf(RateLimitError)
    const waits = outcome.events.filter((event) => event.type === 'retry-wait')
    expect(waits.map((event) => (event.type === 'retry-wait' ? `${event.attempt}/${event.maxAttempts}` : ''))).toEqual(['2/3', '3/3'])
    expectSettled(outcome, attemptsPerCall)
    expect(outcome.requests).toBe(attemptsPerCall)
  })

  it('429 forever with Retry-After in seconds: waits as asked, then gives up after maxRetries + 1 requests', async () => {
    const outcome = await run(provider, { whenEmpty: { fail: 'rate-limit', headers: { 'retry-after': '0.05' } } })
    expect(outcome.error).toBeInstanceOf(RateLimitError)
    const delays = outcome.events.flatMap((event) => (event.type === 'retry-wait' ? [event.delayMs] : []))
    expect(delays).toEqual([50, 50])
    expectSettled(outcome, attemptsPerCall)
  })

  it('429 with a Retry-After HTTP date beyond the longest wait: 1 request, thrown at once with the wait it asked for', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString()
    const outcome = await run(provider, { whenEmpty: { fail: 'rate-limit', headers: { 'retry-after': later } } })
    expect(outcome.error).toBeInstanceOf(RateLimitError)
    expect((outcome.error as RateLimitError).retryAfterMs).toBeGreaterThan(3_000_000)
    expectSettled(outcome, 1)
  })

  it.each([
    ['500', { fail: 'server' } as const],
    ['503 / 529 overloaded', { fail: 'overloaded' } as const],
    [
      '502 HTML page from a proxy',
      {
        fail: 'raw',
        status: 502,
        body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
        headers: { 'content-type': 'text/html' },
      } as const,
    ],
  ])('%s forever: maxRetries + 1 requests, ProviderServerError', async (_name, step) => {
    const outcome = await run(provider, { whenEmpty: step as FakeStep })
    expect(outcome.error).toBeInstanceOf(ProviderServerError)
    if (_name.includes('HTML'))
      expect((outcome.error as ProviderServerError).providerMessage).toContain('HTML page instead of an API error ("502 Bad Gateway")')
    expectSettled(outcome, attemptsPerCall)
    expect(outcome.requests).toBe(attemptsPerCall)
  })

  it('a total retry cap: a wait that would end past maxRetryTotalMs is not made', async () => {
    // retry-after 0.3 s twice would need 600 ms of waiting; the cap below allows one.
    const server = await startFakeProviderServer({ apiKey, whenEmpty: { fail: 'rate-limit', headers: { 'retry-after': '0.3' } } })
    track(server)
    const capped =
      provider === 'openai'
        ? openAICompatible({
            baseURL: server.baseURL,
            apiKey,
            model: 'gpt-4o-mini',
            ...retry,
            maxRetries: 5,
            maxRetryDelayMs: 1_000,
            maxRetryTotalMs: 500,
          })
        : anthropic({
            baseURL: server.baseURL,
            apiKey,
            model: 'claude-sonnet-4-5',
            ...retry,
            maxRetries: 5,
            maxRetryDelayMs: 1_000,
            maxRetryTotalMs: 500,
          })
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create({ title: 'cap' })
    const session = createSession({ threads, threadId: record.id, model: capped, counter })
    const events: SessionEvent[] = []
    for await (const event of session.send('hi')) events.push(event)
    expect(events.at(-1)).toMatchObject({ type: 'error' })
    expect(server.requests.length).toBe(2)
    expect(session.status).toBe('idle')
  })

  it('stream cut in the middle of an event after text: 1 request, ProviderNetworkError, the partial reply recorded as interrupted', async () => {
    const outcome = await run(provider, { whenEmpty: { rawFrames: [...started(provider), halfFrame(provider)], end: 'disconnect' } })
    expect(outcome.error).toBeInstanceOf(ProviderNetworkError)
    expectSettled(outcome, 1)
  })

  it('a malformed SSE line before any event: retried like a server error, maxRetries + 1 requests', async () => {
    const outcome = await run(provider, { whenEmpty: { rawFrames: ['data: {this is not json}\n\n'], end: 'finish' } })
    expect(outcome.error).toBeInstanceOf(ProviderServerError)
    expectSettled(outcome, attemptsPerCall)
  })

  it('a stream that stalls after text: cut off after idleTimeoutMs, 1 request, ProviderNetworkError', async () => {
    const outcome = await run(provider, { whenEmpty: { rawFrames: started(provider), end: 'stall' } })
    expect(outcome.error).toBeInstanceOf(ProviderNetworkError)
    expect((outcome.error as Error).message).toContain('stalled')
    expectSettled(outcome, 1)
  })

  it('a stream that never sends its terminator and stays open: cut off as stalled', async () => {
    const outcome = await run(provider, { whenEmpty: { rawFrames: finishedButOpen(provider), end: 'stall' } })
    expect(outcome.error).toBeInstanceOf(ProviderNetworkError)
    expectSettled(outcome, 1)
  })

  it('a slow first byte past firstEventTimeoutMs: each attempt times out, maxRetries + 1 requests', async () => {
    const outcome = await run(provider, { whenEmpty: { text: 'late', firstByteDelayMs: 2_500 } })
    expect(outcome.error).toBeInstanceOf(ProviderNetworkError)
    expect((outcome.error as Error).message).toContain('no response within 1500 ms')
    expectSettled(outcome, attemptsPerCall)
  })

  it('a slow first byte within the limit: the reply arrives', async () => {
    const outcome = await run(provider, { whenEmpty: { text: 'Worth the wait.', firstByteDelayMs: 150 } })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'Worth the wait.' })
    expectSettled(outcome, 1)
  })

  it('fetch rejecting (offline, CORS): maxRetries + 1 tries, ProviderNetworkError', async () => {
    let fetches = 0
    const outcome = await run(
      provider,
      {},
      {
        fetch: () => () => {
          fetches += 1
          return Promise.reject(new TypeError('Failed to fetch'))
        },
        countFetches: () => fetches,
      },
    )
    expect(outcome.error).toBeInstanceOf(ProviderNetworkError)
    expectSettled(outcome, attemptsPerCall)
    expect(fetches).toBe(attemptsPerCall)
  })

  it('tool-call arguments split across chunks and socket writes: assembled, the tool runs, the model answers', async () => {
    const outcome = await run(provider, {
      writeSize: 7,
      script: [{ toolCalls: [{ name: 'lookup', arguments: { word: 'harbour' } }] }, { text: 'A sheltered port.' }],
    })
    expect(outcome.events.find((event) => event.type === 'tool-result')).toMatchObject({ name: 'lookup', isError: false })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'A sheltered port.' })
    expectSettled(outcome, 2)
  })

  it('duplicate tool-call ids in one reply and across replies: each call gets its own id and its own result', async () => {
    const outcome = await run(provider, {
      script: [
        {
          toolCalls: [
            { id: 'call_0', name: 'lookup', arguments: { word: 'a' } },
            { id: 'call_0', name: 'lookup', arguments: { word: 'b' } },
          ],
        },
        { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { word: 'c' } }] },
        { text: 'Done.' },
      ],
    })
    expect(outcome.events.filter((event) => event.type === 'tool-result')).toHaveLength(3)
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'Done.' })
    // What streamed is what was written: each call's events and its result share one unique id.
    const idsOf = (type: 'tool-call-start' | 'tool-call' | 'tool-result'): string[] =>
      outcome.events.flatMap((event) => (event.type === type ? [event.toolCallId] : []))
    expect(idsOf('tool-call')).toEqual(['call_0', 'call_0_2', 'call_0_3'])
    expect(idsOf('tool-call-start')).toEqual(idsOf('tool-call'))
    expect([...idsOf('tool-result')].sort()).toEqual(idsOf('tool-call'))
    expectSettled(outcome, 3)
  })

  it('invalid JSON arguments: answered with a tool error, the model corrects itself', async () => {
    const outcome = await run(provider, { script: [{ toolCalls: [{ name: 'lookup', arguments: '{"word": "harb' }] }, { text: 'Sorry, fixed.' }] })
    expect(outcome.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'Sorry, fixed.' })
    expectSettled(outcome, 2)
  })

  it('a model that calls tools forever: stops at maxIterations model calls', async () => {
    const outcome = await run(provider, { whenEmpty: { toolCalls: [{ name: 'lookup', arguments: { word: 'again' } }] } })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'max-iterations', iterations: maxIterations })
    expectSettled(outcome, maxIterations)
  })
})

describe('openai client: chunks a strict client would not expect', () => {
  it('empty choices, then a usage-only final chunk: the reply ends cleanly with the usage', async () => {
    const usageOnly = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 12, completion_tokens: 2 } })}\n\n`
    const empty = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [] })}\n\n`
    const outcome = await run('openai', {
      whenEmpty: {
        rawFrames: [empty, openAIFrame({ role: 'assistant', content: 'Hi.' }), openAIFrame({}, 'stop'), usageOnly, 'data: [DONE]\n\n'],
        end: 'finish',
      },
    })
    expect(outcome.events.find((event) => event.type === 'usage')).toMatchObject({ inputTokens: 12, outputTokens: 2 })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: 'Hi.' })
    expectSettled(outcome, 1)
  })

  it('only empty choices and [DONE]: an empty reply, not a hang or a crash', async () => {
    const empty = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [] })}\n\n`
    const outcome = await run('openai', { whenEmpty: { rawFrames: [empty, 'data: [DONE]\n\n'], end: 'finish' } })
    expect(outcome.events.at(-1)).toMatchObject({ type: 'done', text: '' })
    expectSettled(outcome, 1)
  })
})
