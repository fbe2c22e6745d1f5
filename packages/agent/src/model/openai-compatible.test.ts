import { toOpenAIChat } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { fakeServerPerTest, startFakeProviderServer } from '@threadlens/testing/node'
import { afterToolRoundProjection, ask, askProjection, clockTool, weatherTool } from '../testing/test-projections'
import { collectModelReply } from './collect-reply'
import { ProviderAuthError, ProviderNetworkError, ProviderRequestError, ProviderServerError, RateLimitError } from './errors'
import type { ModelClient, ModelStreamEvent } from './model-client'
import { type OpenAICompatibleOptions, openAICompatible, readChatCompletionStream } from './openai-compatible'
import type { CallContext } from './provider-errors'
import type { RetryNotice } from './stream-with-retries'
import { eventsOf, failure, textOf } from '../testing/stream-events'

// Repeated on purpose: same setup as packages/agent/src/model/anthropic.test.ts (each file builds its own provider's client, key and model);
// what both clients promise alike runs over both in providers.test.ts.
const apiKey = 'sk-test-openai-0123456789abcdef'
const server = fakeServerPerTest({ apiKey })

function client(options: Partial<OpenAICompatibleOptions> = {}): ModelClient {
  return openAICompatible({ baseURL: server.baseURL, apiKey, model: 'gpt-4o-mini', retryDelayMs: 1, ...options })
}

describe('openAICompatible: streaming', () => {
  it('streams text in chunks, then usage, then finish', async () => {
    server.enqueue({ text: 'Pack a raincoat: 4°C and rain.', cachedInputTokens: 3 })
    const events = await eventsOf(client().stream(ask()))
    const textDeltas = events.filter((event) => event.type === 'text-delta')
    expect(textDeltas.length).toBeGreaterThan(1)
    expect(textOf(events)).toBe('Pack a raincoat: 4°C and rain.')
    expect(events.at(-2)).toMatchObject({ type: 'usage', cachedInputTokens: 3 })
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'stop', rawStopReason: 'stop' })
    const usage = events.at(-2) as Extract<ModelStreamEvent, { type: 'usage' }>
    expect(usage.inputTokens).toBeGreaterThan(10)
    expect(usage.outputTokens).toBeGreaterThan(0)
  })

  it('sends the documented request, field by field', async () => {
    server.enqueue({ text: 'ok' })
    const projection = askProjection()
    await eventsOf(client().stream({ projection, tools: [weatherTool, clockTool] }))
    const [request] = server.requests
    expect(request).toMatchObject({ route: 'openai-chat', method: 'POST', path: '/v1/chat/completions', status: 200, problems: [] })
    expect(request?.headers).toMatchObject({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' })
    const body = request?.body as Record<string, unknown>
    expect(Object.keys(body)).toEqual(['model', 'messages', 'tools', 'stream', 'stream_options'])
    expect(body['model']).toBe('gpt-4o-mini')
    expect(body['messages']).toEqual(toOpenAIChat(projection))
    expect(body['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ])
    expect(body['tools']).toEqual([
      { type: 'function', function: { name: 'weather', description: 'Current weather for a city.', parameters: weatherTool.parameters } },
      { type: 'function', function: { name: 'clock', parameters: clockTool.parameters } },
    ])
    expect(body['stream']).toBe(true)
    expect(body['stream_options']).toEqual({ include_usage: true })
  })

  it('sends the output cap in the chosen field, extra headers, no empty tools, and no stream_options when asked', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' })
    await eventsOf(
      client({ maxOutputTokens: 100, headers: { 'HTTP-Referer': 'https://threadlens.test', 'X-Title': 'threadlens' } }).stream(ask({ tools: [] })),
    )
    await eventsOf(client({ maxOutputTokens: 100, maxOutputTokensField: 'max_completion_tokens' }).stream(ask({ maxOutputTokens: 42 })))
    await eventsOf(client({ includeUsage: false }).stream(ask()))
    const [first, second, third] = server.requests.map((request) => request.body as Record<string, unknown>)
    expect(first).toMatchObject({ max_tokens: 100 })
    expect(first).not.toHaveProperty('tools')
    expect(server.requests[0]?.headers).toMatchObject({ 'http-referer': 'https://threadlens.test', 'x-title': 'threadlens' })
    expect(second).toMatchObject({ max_completion_tokens: 42 })
    expect(second).not.toHaveProperty('max_tokens')
    expect(third).not.toHaveProperty('stream_options')
    expect(third).not.toHaveProperty('max_tokens')
  })

  it('marks cache breakpoints for GPT-5.6 and later only, and reports the cache writes they bill', async () => {
    server.enqueue({ text: 'a', cachedInputTokens: 0, cacheWriteInputTokens: 40 }, { text: 'b' }, { text: 'c' }, { text: 'd' })
    const projection = askProjection()
    const events = await eventsOf(client({ model: 'gpt-5.6-terra' }).stream({ projection, tools: [] }))
    await eventsOf(client().stream({ projection, tools: [] }))
    await eventsOf(client({ model: 'gpt-5.6-luna', cacheBreakpoints: false }).stream({ projection, tools: [] }))
    await eventsOf(client({ model: 'llama3.2', cacheBreakpoints: true }).stream({ projection, tools: [] }))
    const [terra, mini, optedOut, forced] = server.requests.map((request) => request.body as Record<string, unknown>)
    const marked = [
      { role: 'system', content: [{ type: 'text', text: 'Be brief.', prompt_cache_breakpoint: { mode: 'explicit' } }] },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ]
    expect(terra?.['messages']).toEqual(marked)
    expect(server.requests.every((request) => request.problems.length === 0)).toBe(true)
    expect(mini?.['messages']).toEqual(toOpenAIChat(projection))
    expect(optedOut?.['messages']).toEqual(toOpenAIChat(projection))
    expect(forced?.['messages']).toEqual(marked)
    expect(events.find((event) => event.type === 'usage')).toMatchObject({ cachedInputTokens: 0, cacheWriteInputTokens: 40 })
  })

  it('sends a history holding parallel tool calls and results in the order the API requires', async () => {
    server.enqueue({ text: 'Sunny.' })
    const reply = await collectModelReply(client().stream({ projection: afterToolRoundProjection(), tools: [weatherTool] }))
    expect(reply.text).toBe('Sunny.')
    const [request] = server.requests
    expect(request?.problems).toEqual([])
    const messages = (request!.body as { messages: { role: string; tool_call_id?: string }[] }).messages
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'])
    // The results were appended Bergen first; the projection answers the calls in call order.
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['call_oslo', 'call_bergen'])
  })

  it('assembles parallel tool calls by index, one after another or interleaved', async () => {
    for (const interleaveToolCalls of [false, true]) {
      server.enqueue({
        text: 'Checking both.',
        toolCalls: [
          { id: 'call_a', name: 'weather', arguments: { city: 'Oslo', note: 'a longer argument to split' } },
          { id: 'call_b', name: 'weather', arguments: { city: 'Bergen' } },
        ],
        interleaveToolCalls,
      })
      const events = await eventsOf(client().stream(ask()))
      expect(events.filter((event) => event.type === 'tool-call-start')).toEqual([
        { type: 'tool-call-start', toolCallId: 'call_a', name: 'weather' },
        { type: 'tool-call-start', toolCallId: 'call_b', name: 'weather' },
      ])
      for (const id of ['call_a', 'call_b']) {
        const streamed = events
          .flatMap((event) => (event.type === 'tool-call-delta' && event.toolCallId === id ? [event.argumentsDelta] : []))
          .join('')
        const call = events.find((event) => event.type === 'tool-call' && event.toolCallId === id)
        expect(call).toMatchObject({ argumentsText: streamed })
      }
      expect(events.filter((event) => event.type === 'tool-call')).toEqual([
        {
          type: 'tool-call',
          toolCallId: 'call_a',
          name: 'weather',
          arguments: { city: 'Oslo', note: 'a longer argument to split' },
          argumentsText: '{"city":"Oslo","note":"a longer argument to split"}',
        },
        { type: 'tool-call', toolCallId: 'call_b', name: 'weather', arguments: { city: 'Bergen' }, argumentsText: '{"city":"Bergen"}' },
      ])
      expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'tool-calls', rawStopReason: 'tool_calls' })
    }
  })

  it('reports arguments that are not a JSON object on the tool-call event, for the loop to answer as a tool error', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'call_bad', name: 'weather', arguments: '{"city": "Os' },
        { id: 'call_list', name: 'weather', arguments: '[1]' },
      ],
    })
    const reply = await collectModelReply(client().stream(ask()))
    expect(reply.toolCalls[0]).toMatchObject({ toolCallId: 'call_bad', arguments: {}, argumentsText: '{"city": "Os' })
    expect(reply.toolCalls[0]?.argumentsError).toMatch(
      /^The arguments for tool "weather" could not be used: they are not valid JSON .*Received: \{"city": "Os/,
    )
    expect(reply.toolCalls[1]?.argumentsError).toContain('must be a JSON object, not an array')
  })
})

describe('openAICompatible: errors and retries', () => {
  it('throws ProviderAuthError for a wrong or missing key, without retrying', async () => {
    const wrong = await failure(client({ apiKey: 'sk-wrong-key-000000000000' }).stream(ask()))
    expect(wrong.error).toBeInstanceOf(ProviderAuthError)
    expect(wrong.error).toMatchObject({ status: 401, code: 'invalid_api_key' })
    const { apiKey: _omitted, ...withoutKey } = { baseURL: server.baseURL, apiKey, model: 'gpt-4o-mini' }
    const missing = await failure(openAICompatible(withoutKey).stream(ask()))
    expect(missing.error).toBeInstanceOf(ProviderAuthError)
    expect(server.requests.map((request) => request.status)).toEqual([401, 401])
    expect(server.requests[1]?.headers).not.toHaveProperty('authorization')
  })

  it('retries a 429 after retry-after, then streams', async () => {
    server.enqueue({ fail: 'rate-limit', headers: { 'retry-after-ms': '2' } }, { text: 'made it' })
    const notices: RetryNotice[] = []
    const reply = await collectModelReply(client({ onRetry: (notice) => notices.push(notice) }).stream(ask()))
    expect(reply.text).toBe('made it')
    expect(server.requests.map((request) => request.status)).toEqual([429, 200])
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({ retry: 1, delayMs: 2 })
    expect(notices[0]?.error).toBeInstanceOf(RateLimitError)
  })

  it('gives up after maxRetries, with the RateLimitError and its retryAfterMs', async () => {
    const limited = { fail: 'rate-limit', headers: { 'retry-after': '0.001' } } as const
    server.enqueue(limited, limited, limited, limited)
    const { error } = await failure(client().stream(ask()))
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error).toMatchObject({ retryAfterMs: 1, quotaExceeded: false, code: 'rate_limit_exceeded' })
    expect(server.requests).toHaveLength(3)
    expect(server.remainingSteps).toBe(1)
  })

  it('does not wait for a retry-after longer than maxRetryDelayMs, nor retry a used-up quota', async () => {
    server.enqueue({ fail: 'rate-limit', headers: { 'retry-after': '120' } }, { fail: 'quota' })
    const long = await failure(client().stream(ask()))
    expect(long.error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 120_000 })
    const quota = await failure(client().stream(ask()))
    expect(quota.error).toMatchObject({ name: 'RateLimitError', quotaExceeded: true, retryable: false })
    expect(server.requests).toHaveLength(2)
  })

  it('retries server errors with backoff, and not at all with maxRetries 0', async () => {
    server.enqueue({ fail: 'server' }, { fail: 'overloaded' }, { text: 'third time lucky' })
    expect((await collectModelReply(client().stream(ask()))).text).toBe('third time lucky')
    expect(server.requests.map((request) => request.status)).toEqual([500, 503, 200])

    server.enqueue({ fail: 'server' })
    const { error } = await failure(client({ maxRetries: 0 }).stream(ask()))
    expect(error).toBeInstanceOf(ProviderServerError)
    expect(error).toMatchObject({ status: 500, retryable: true })
    expect(server.requests).toHaveLength(4)
  })

  it('throws ProviderRequestError with the provider message for an unknown model', async () => {
    server.enqueue({ fail: 'model-not-found' })
    const { error } = await failure(client({ model: 'gpt-9' }).stream(ask()))
    expect(error).toBeInstanceOf(ProviderRequestError)
    expect((error as Error).message).toContain('The model `gpt-9` does not exist')
    expect(server.requests).toHaveLength(1)
  })

  it('throws the error a server sends inside the stream, after the text it streamed', async () => {
    server.enqueue({ text: 'Partial', end: 'stream-error' })
    const { error, events } = await failure(client().stream(ask()))
    expect(error).toBeInstanceOf(ProviderServerError)
    expect(error).toMatchObject({ providerMessage: 'Provider disconnected', status: undefined })
    expect(events.some((event) => event.type === 'text-delta')).toBe(true)
    expect(server.requests).toHaveLength(1)
  })

  it('retries an unreachable server, then throws ProviderNetworkError naming the origin', async () => {
    const closed = await startFakeProviderServer()
    const baseURL = closed.baseURL
    await closed.close()
    let calls = 0
    const counting = openAICompatible({ baseURL, model: 'llama3.2', retryDelayMs: 1, fetch: (input, init) => ((calls += 1), fetch(input, init)) })
    const { error } = await failure(counting.stream(ask()))
    expect(error).toBeInstanceOf(ProviderNetworkError)
    expect((error as ProviderNetworkError).origin).toBe(new URL(baseURL).origin)
    expect(calls).toBe(3)
  })

  it('refuses a JSON answer to a streaming request, without retrying', async () => {
    let calls = 0
    const jsonServer = openAICompatible({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      fetch: async () => ((calls += 1), new Response('{"choices":[]}', { status: 200, headers: { 'content-type': 'application/json' } })),
    })
    const { error } = await failure(jsonServer.stream(ask()))
    expect(error).toBeInstanceOf(ProviderServerError)
    expect((error as Error).message).toContain('does this server support streaming?')
    expect(calls).toBe(1)
  })
})

describe('openAICompatible: abort', () => {
  it('sends nothing for an already aborted signal', async () => {
    const events = await eventsOf(client().stream(ask({ signal: AbortSignal.abort() })))
    expect(events).toEqual([{ type: 'finish', stopReason: 'abort', rawStopReason: undefined }])
    expect(server.requests).toHaveLength(0)
  })

  it('stops waiting for a retry when aborted during the backoff', async () => {
    server.enqueue({ fail: 'rate-limit', headers: { 'retry-after': '30' } })
    const controller = new AbortController()
    const events = await eventsOf(client({ onRetry: () => controller.abort() }).stream(ask({ signal: controller.signal })))
    expect(events).toEqual([{ type: 'finish', stopReason: 'abort', rawStopReason: undefined }])
    expect(server.requests).toHaveLength(1)
  })

  it('cancels the response when the caller stops reading early', async () => {
    server.enqueue({ text: 'A long reply the caller does not wait for', end: 'stall' })
    for await (const event of client().stream(ask())) {
      expect(event.type).toBe('text-delta')
      break
    }
    const [request] = server.requests
    if (request === undefined) throw new Error('the server got no request')
    await server.whenClosed(request)
    expect(request.clientClosed).toBe(true)
  })
})

describe('readChatCompletionStream: compatible servers', () => {
  const context: CallContext = { provider: 'openai-compatible', model: 'm', origin: 'http://localhost', secrets: [] }
  async function read(chunks: readonly unknown[]): Promise<ModelStreamEvent[]> {
    async function* events() {
      for (const chunk of chunks) yield { event: 'message', data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) }
    }
    return eventsOf(readChatCompletionStream(events(), context))
  }
  const delta = (value: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: value, finish_reason: finish }] })

  it('reports tool-calls when a server finishes with "stop" after calling tools (older Ollama), with usage on the last chunk', async () => {
    const events = await read([
      delta({ tool_calls: [{ id: 'call_1', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] }),
      { ...delta({}, 'stop'), usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } },
      '[DONE]',
    ])
    expect(events).toEqual([
      { type: 'tool-call-start', toolCallId: 'call_1', name: 'weather' },
      { type: 'tool-call-delta', toolCallId: 'call_1', argumentsDelta: '{"city":"Oslo"}' },
      { type: 'tool-call', toolCallId: 'call_1', name: 'weather', arguments: { city: 'Oslo' }, argumentsText: '{"city":"Oslo"}' },
      { type: 'usage', inputTokens: 12, outputTokens: 5 },
      { type: 'finish', stopReason: 'tool-calls', rawStopReason: 'stop' },
    ])
  })

  it('tells calls apart by id when a server omits the index, and makes up ids a server omits', async () => {
    const events = await read([
      delta({ tool_calls: [{ id: 'call_1', function: { name: 'a', arguments: '{}' } }] }),
      delta({ tool_calls: [{ id: 'call_2', function: { name: 'b', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 5, function: { name: 'c', arguments: '' } }] }),
      delta({}, 'tool_calls'),
    ])
    const calls = events.filter((event) => event.type === 'tool-call')
    expect(calls.map((call) => call.name)).toEqual(['a', 'b', 'c'])
    expect(calls[2]?.toolCallId).toMatch(/^call_[0-9a-f]{32}$/)
    expect(calls[2]).toMatchObject({ arguments: {}, argumentsText: '' })
  })

  it('maps finish reasons', async () => {
    const finish = async (reason: string) => (await read([delta({ content: 'x' }, reason), '[DONE]'])).at(-1)
    expect(await finish('length')).toEqual({ type: 'finish', stopReason: 'length', rawStopReason: 'length' })
    expect(await finish('content_filter')).toEqual({ type: 'finish', stopReason: 'content-filter', rawStopReason: 'content_filter' })
    expect(await finish('error')).toEqual({ type: 'finish', stopReason: 'error', rawStopReason: 'error' })
    expect(await finish('eos')).toEqual({ type: 'finish', stopReason: 'stop', rawStopReason: 'eos' })
  })

  it('accepts a stream that ends after finish_reason without [DONE], and rejects one that just stops', async () => {
    expect((await read([delta({ content: 'hi' }, 'stop')])).at(-1)).toMatchObject({ stopReason: 'stop' })
    await expect(read([delta({ content: 'hi' })])).rejects.toBeInstanceOf(ProviderNetworkError)
  })

  it('throws a malformed-stream ProviderServerError for data that is not JSON', async () => {
    await expect(read(['{"choices": ['])).rejects.toThrow(/malformed stream/)
  })
})
