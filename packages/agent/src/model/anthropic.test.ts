import { createThread, definePolicy, project, toAnthropicMessages } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { fakeServerPerTest } from '@threadlens/testing/node'
import { afterToolRoundProjection, ask, askProjection, clockTool, testCounter, weatherTool } from '../testing/test-projections'
import { type AnthropicOptions, anthropic, readAnthropicStream } from './anthropic'
import { collectModelReply } from './collect-reply'
import { ProviderAuthError, ProviderRequestError, RateLimitError } from './errors'
import type { ModelClient, ModelStreamEvent } from './model-client'
import type { CallContext } from './provider-errors'
import { eventsOf, failure, textOf, toIterable } from '../testing/stream-events'

// Repeated on purpose: same setup as packages/agent/src/model/openai-compatible.test.ts (each file builds its own provider's client, key and model);
// what both clients promise alike runs over both in providers.test.ts.
const apiKey = 'sk-ant-test-0123456789abcdef'
const server = fakeServerPerTest({ apiKey })

function client(options: Partial<AnthropicOptions> = {}): ModelClient {
  return anthropic({ baseURL: server.baseURL, apiKey, model: 'claude-sonnet-4-5', retryDelayMs: 1, ...options })
}

describe('anthropic: streaming', () => {
  it('streams text, then usage with cache reads counted in the input, then finish', async () => {
    server.enqueue({ text: 'Pack a raincoat: 4°C and rain.', inputTokens: 50, outputTokens: 9, cachedInputTokens: 30 })
    const events = await eventsOf(client().stream(ask()))
    expect(textOf(events)).toBe('Pack a raincoat: 4°C and rain.')
    // The wire says input_tokens 20 + cache_read_input_tokens 30: inputTokens is the whole prompt.
    expect(events.at(-2)).toEqual({ type: 'usage', inputTokens: 50, outputTokens: 9, cachedInputTokens: 30, cacheWriteInputTokens: 0 })
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'stop', rawStopReason: 'end_turn' })
  })

  it('sends the documented request, field by field', async () => {
    server.enqueue({ text: 'ok' })
    const projection = askProjection()
    await eventsOf(client().stream({ projection, tools: [weatherTool, clockTool] }))
    const [request] = server.requests
    expect(request).toMatchObject({ route: 'anthropic-messages', method: 'POST', path: '/v1/messages', status: 200, problems: [] })
    expect(request?.headers).toMatchObject({
      'x-api-key': apiKey,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
      'content-type': 'application/json',
      accept: 'text/event-stream',
    })
    expect(request?.headers).not.toHaveProperty('authorization')
    const body = request?.body as Record<string, unknown>
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'system', 'messages', 'tools', 'stream'])
    expect(body['model']).toBe('claude-sonnet-4-5')
    expect(body['max_tokens']).toBe(4096)
    // Default policy: explicit cache breakpoints after tools + system and at the end of the request.
    expect(body['system']).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }])
    expect(body['messages']).toEqual(toAnthropicMessages(projection).messages)
    expect(body['messages']).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Oslo?', cache_control: { type: 'ephemeral' } }] },
    ])
    expect(body['tools']).toEqual([
      { name: 'weather', description: 'Current weather for a city.', input_schema: weatherTool.parameters },
      { name: 'clock', input_schema: clockTool.parameters },
    ])
    expect(body['stream']).toBe(true)
  })

  it('puts the tools-and-system breakpoint on the last tool when there is no system prompt, and sends the automatic mode', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' })
    const policy = definePolicy({ cache: { anthropic: 'auto', ttl: '1h' } })
    const counter = testCounter
    const thread = createThread({ id: 'cache-thread' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Hi' } })
    const projection = project({ thread, policy, counter, tools: [weatherTool, clockTool] })
    await eventsOf(client().stream({ projection, tools: [weatherTool, clockTool] }))
    const body = server.requests[0]?.body as Record<string, unknown>
    expect(server.requests[0]?.problems).toEqual([])
    expect(body['tools']).toEqual([
      { name: 'weather', description: 'Current weather for a city.', input_schema: weatherTool.parameters },
      { name: 'clock', input_schema: clockTool.parameters, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ])
    expect(body['cache_control']).toEqual({ type: 'ephemeral', ttl: '1h' })
    const off = project({ thread, policy: definePolicy({ cache: { anthropic: 'off' } }), counter, tools: [weatherTool] })
    await eventsOf(client().stream({ projection: off, tools: [weatherTool] }))
    expect(JSON.stringify(server.requests[1]?.body)).not.toContain('cache_control')
  })

  it('takes max_tokens from the request, then the client; sends extra headers; no empty tools', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' })
    await eventsOf(client({ maxOutputTokens: 1000, headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } }).stream(ask({ tools: [] })))
    await eventsOf(client({ maxOutputTokens: 1000 }).stream(ask({ maxOutputTokens: 64 })))
    const [first, second] = server.requests.map((request) => request.body as Record<string, unknown>)
    expect(first).toMatchObject({ max_tokens: 1000 })
    expect(first).not.toHaveProperty('tools')
    expect(server.requests[0]?.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31')
    expect(second).toMatchObject({ max_tokens: 64 })
  })

  it('sends a history holding parallel tool calls and results as tool_use / tool_result blocks the API accepts', async () => {
    server.enqueue({ text: 'Sunny.' })
    expect((await collectModelReply(client().stream({ projection: afterToolRoundProjection(), tools: [weatherTool] }))).text).toBe('Sunny.')
    const [request] = server.requests
    expect(request?.problems).toEqual([])
    const body = request?.body as { messages: { role: string; content: { type: string; tool_use_id?: string; is_error?: boolean }[] }[] }
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_oslo', content: 'Error: station offline', is_error: true },
      { type: 'tool_result', tool_use_id: 'call_bergen', content: '{"celsius":4}' },
    ])
  })

  it('streams parallel tool calls, each complete at its block stop', async () => {
    server.enqueue({
      text: 'Checking both.',
      toolCalls: [
        { id: 'toolu_a', name: 'weather', arguments: { city: 'Oslo' } },
        { id: 'toolu_b', name: 'clock', arguments: {} },
      ],
    })
    const events = await eventsOf(client().stream(ask()))
    const kinds = events.map((event) =>
      event.type === 'tool-call-start' || event.type === 'tool-call' ? `${event.type}:${event.toolCallId}` : event.type,
    )
    expect(kinds.filter((kind) => kind !== 'tool-call-delta' && kind !== 'text-delta')).toEqual([
      'tool-call-start:toolu_a',
      'tool-call:toolu_a',
      'tool-call-start:toolu_b',
      'tool-call:toolu_b',
      'usage',
      'finish',
    ])
    const reply = await collectModelReply(toIterable(events))
    expect(reply.toolCalls).toEqual([
      { type: 'tool-call', toolCallId: 'toolu_a', name: 'weather', arguments: { city: 'Oslo' }, argumentsText: '{"city":"Oslo"}' },
      { type: 'tool-call', toolCallId: 'toolu_b', name: 'clock', arguments: {}, argumentsText: '{}' },
    ])
    expect(reply).toMatchObject({ stopReason: 'tool-calls', rawStopReason: 'tool_use' })
  })
})

describe('anthropic: errors and retries', () => {
  it('throws ProviderAuthError for a wrong key, without retrying', async () => {
    const { error } = await failure(client({ apiKey: 'sk-ant-wrong' }).stream(ask()))
    expect(error).toBeInstanceOf(ProviderAuthError)
    expect(error).toMatchObject({ status: 401, code: 'authentication_error', providerMessage: 'invalid x-api-key' })
    expect(server.requests).toHaveLength(1)
  })

  it('retries 529 overloaded and 429 with retry-after, then streams', async () => {
    server.enqueue({ fail: 'overloaded' }, { fail: 'rate-limit', headers: { 'retry-after': '0' } }, { text: 'made it' })
    expect((await collectModelReply(client().stream(ask()))).text).toBe('made it')
    expect(server.requests.map((request) => request.status)).toEqual([529, 429, 200])
  })

  it('throws the last retryable error once retries are used up', async () => {
    server.enqueue({ fail: 'overloaded' }, { fail: 'overloaded' }, { fail: 'rate-limit', headers: { 'retry-after': '0' } })
    const { error } = await failure(client().stream(ask()))
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error).toMatchObject({ retryAfterMs: 0, code: 'rate_limit_error' })
    expect(server.requests).toHaveLength(3)
  })

  it('throws ProviderRequestError for an empty credit balance and an unknown model', async () => {
    server.enqueue({ fail: 'quota' }, { fail: 'model-not-found' })
    const quota = await failure(client().stream(ask()))
    expect(quota.error).toBeInstanceOf(ProviderRequestError)
    expect((quota.error as Error).message).toContain('credit balance is too low')
    const missing = await failure(client({ model: 'claude-9' }).stream(ask()))
    expect(missing.error).toMatchObject({ name: 'ProviderRequestError', status: 404, providerMessage: 'model: claude-9' })
    expect(server.requests).toHaveLength(2)
  })
})

describe('readAnthropicStream', () => {
  const context: CallContext = { provider: 'anthropic', model: 'm', origin: 'https://api.anthropic.com', secrets: [] }
  async function read(payloads: readonly { type: string; [key: string]: unknown }[]): Promise<ModelStreamEvent[]> {
    async function* events() {
      for (const payload of payloads) yield { event: payload.type, data: JSON.stringify(payload) }
    }
    return eventsOf(readAnthropicStream(events(), context))
  }
  const start = { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } }

  it('skips thinking blocks and unknown events, and maps stop reasons', async () => {
    const events = await read([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'cut' } },
      { type: 'something_new', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ])
    expect(events).toEqual([
      { type: 'text-delta', text: 'cut' },
      { type: 'usage', inputTokens: 10, outputTokens: 3 },
      { type: 'finish', stopReason: 'length', rawStopReason: 'max_tokens' },
    ])
    const refusal = await read([start, { type: 'message_delta', delta: { stop_reason: 'refusal' } }, { type: 'message_stop' }])
    expect(refusal.at(-1)).toEqual({ type: 'finish', stopReason: 'content-filter', rawStopReason: 'refusal' })
  })

  it('rejects a stream that ends before the message does', async () => {
    await expect(read([start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } }])).rejects.toMatchObject({
      name: 'ProviderNetworkError',
    })
  })
})
