import { describe, expect, it } from 'vitest'
import { fakeServerPerTest, startFakeProviderServer } from '@threadlens/testing/node'
import { ask } from '../testing/test-projections'
import { anthropic } from './anthropic'
import { collectModelReply } from './collect-reply'
import { ContextTooLongError, ProviderNetworkError, ProviderServerError } from './errors'
import type { ModelClient, ModelStreamEvent } from './model-client'
import { openAICompatible } from './openai-compatible'
import { eventsOf, failure, textOf, toIterable } from '../testing/stream-events'

// What both HTTP clients promise alike, run over each against the fake provider server; each
// provider's own wire format, errors and retries are in anthropic.test.ts and openai-compatible.test.ts.
const apiKey = 'sk-providers-0123456789abcdef'
interface Provider {
  readonly name: string
  readonly client: (baseURL: string) => ModelClient
  readonly contextTooLongCode: string
  /** How this provider's stream fails half-way (a dropped connection; Anthropic's overloaded error event), and the error it becomes. */
  readonly failsMidStream: { readonly end: 'disconnect' | 'stream-error'; readonly error: ErrorClass; readonly details: object }
}
type ErrorClass = typeof ProviderNetworkError | typeof ProviderServerError

const providers: readonly Provider[] = [
  {
    name: 'openAICompatible',
    client: (baseURL) => openAICompatible({ baseURL, apiKey, model: 'gpt-4o-mini', retryDelayMs: 1 }),
    contextTooLongCode: 'context_length_exceeded',
    failsMidStream: { end: 'disconnect', error: ProviderNetworkError, details: { provider: 'openai-compatible' } },
  },
  {
    name: 'anthropic',
    client: (baseURL) => anthropic({ baseURL, apiKey, model: 'claude-sonnet-4-5', retryDelayMs: 1 }),
    contextTooLongCode: 'invalid_request_error',
    failsMidStream: { end: 'stream-error', error: ProviderServerError, details: { code: 'overloaded_error', status: undefined, retryable: true } },
  },
]

describe.each(providers)('$name', ({ client, contextTooLongCode, failsMidStream }) => {
  const server = fakeServerPerTest({ apiKey })

  it('ends with finish "abort" when aborted mid-stream, and closes the connection', async () => {
    server.enqueue({ text: 'This reply never ends', end: 'stall' })
    const controller = new AbortController()
    const events: ModelStreamEvent[] = []
    for await (const event of client(server.baseURL).stream(ask({ signal: controller.signal }))) {
      events.push(event)
      if (event.type === 'text-delta') controller.abort()
    }
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'abort', rawStopReason: undefined })
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1)
    const [request] = server.requests
    if (request === undefined) throw new Error('the server got no request')
    await server.whenClosed(request)
    expect(request.clientClosed).toBe(true)
  })

  it('gives the same reply whatever the write size splits the stream into (events, lines, UTF-8 characters)', async () => {
    const reply = {
      text: 'Blåbær 🫐 日本語 — done.',
      toolCalls: [{ id: 'call_x', name: 'weather', arguments: { city: 'Tromsø ❄️' } }],
      cachedInputTokens: 2,
    }
    server.enqueue(reply)
    const reference = await eventsOf(client(server.baseURL).stream(ask()))
    expect(reference.filter((event) => event.type === 'tool-call')).toHaveLength(1)
    for (const writeSize of [1, 2, 3, 5, 7, 13, 64]) {
      const splitting = await startFakeProviderServer({ apiKey, writeSize, script: [reply] })
      try {
        const events = await eventsOf(client(splitting.baseURL).stream(ask()))
        expect(await collectModelReply(toIterable(events)), `writeSize ${writeSize}`).toEqual(await collectModelReply(toIterable(reference)))
      } finally {
        await splitting.close()
      }
    }
  })

  it('retries a stream that fails before any content, but never once text was streamed', async () => {
    server.enqueue({ end: failsMidStream.end }, { text: 'second try' })
    expect((await collectModelReply(client(server.baseURL).stream(ask()))).text).toBe('second try')
    expect(server.requests).toHaveLength(2)

    server.enqueue({ text: 'Partial', end: failsMidStream.end }, { text: 'never sent' })
    const { error, events } = await failure(client(server.baseURL).stream(ask()))
    expect(error).toBeInstanceOf(failsMidStream.error)
    expect(error).toMatchObject(failsMidStream.details)
    expect(textOf(events)).toBe('Partial')
    expect(server.requests).toHaveLength(3)
    expect(server.remainingSteps).toBe(1)
  })

  it('throws ContextTooLongError with the counts, without retrying, when the prompt exceeds the window', async () => {
    const small = await startFakeProviderServer({ apiKey, maxContextTokens: 10 })
    try {
      const { error } = await failure(client(small.baseURL).stream(ask()))
      expect(error).toBeInstanceOf(ContextTooLongError)
      expect(error).toMatchObject({ status: 400, code: contextTooLongCode, limitTokens: 10, retryable: false })
      expect((error as ContextTooLongError).requestedTokens).toBeGreaterThan(10)
      expect(small.requests).toHaveLength(1)
    } finally {
      await small.close()
    }
  })
})
