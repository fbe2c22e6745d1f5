import { readFile } from 'node:fs/promises'
import { createTokenCounter, type Entry } from '@threadlens/core'
import { threadCalls } from '@threadlens/core/calls'
import { createMemoryBackedStores } from '@threadlens/store'
import { DefaultChatTransport, readUIMessageStream, simulateReadableStream, type UIMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { chatRoute } from '../examples/server-route'
import { createChatPersistence, type ChatPersistence } from './chat-persistence'
import { InvalidCallMetadataError } from './errors'
import { routeTransport, submit } from './testing/chat-requests'

// The whole server-route path: the browser's DefaultChatTransport sends the projection, the route
// (examples/server-route.ts, with the AI SDK's mock model) runs streamText and reports the call in
// the reply's metadata, the browser reads the stream as useChat does and saves the reply, and the
// call's record on the thread has the usage, cache reads and writes, stop reason, timings and steps.

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt']

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input - 60, cacheRead: 50, cacheWrite: 10 },
  outputTokens: { total: output, text: output, reasoning: undefined },
})

/** A model that looks an order up twice (two tool steps), then answers; or answers at once when asked nothing about orders. */
function shopModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'shop',
    modelId: 'shop-model',
    doStream: async ({ prompt }: { prompt: Prompt }) => {
      const results = prompt.filter((message) => message.role === 'tool').length
      const asks = prompt.filter((message) => message.role === 'user').at(-1)
      const asksOrders = JSON.stringify(asks?.content).includes('order')
      if (asksOrders && results < 2) {
        const chunks = [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'tool-call' as const, toolCallId: `call-${results}`, toolName: 'orderStatus', input: JSON.stringify({ orderId: `4${results}` }) },
          { type: 'finish' as const, usage: usage(100 + results * 40, 12), finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' } },
        ]
        return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 2 }) }
      }
      const chunks = [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'text-start' as const, id: 't' },
        { type: 'text-delta' as const, id: 't', delta: 'Both orders ' },
        { type: 'text-delta' as const, id: 't', delta: 'have shipped.' },
        { type: 'text-end' as const, id: 't' },
        { type: 'finish' as const, usage: usage(200, 8), finishReason: { unified: 'stop' as const, raw: 'end_turn' } },
      ]
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 2 }) }
    },
  })
}

async function setUp(chatId: string, options: { onInvalidMetadata?: (problem: InvalidCallMetadataError) => void } = {}) {
  const { threads } = createMemoryBackedStores()
  const persistence = createChatPersistence({ store: threads, chatId, ...options })
  const counter = await createTokenCounter('o200k_base')
  const route = chatRoute(shopModel())
  const transport = routeTransport(persistence, counter, 'http://shop.test/api/chat', (url, init) => route(new Request(url, init)))
  return { threads, persistence, transport }
}

/** Sends as useChat does, reads the reply from the stream as useChat does, and saves it (`onFinish`). */
async function turn(persistence: ChatPersistence, transport: DefaultChatTransport<UIMessage>, history: UIMessage[]): Promise<UIMessage> {
  const stream = await submit(transport, persistence.chatId, history)
  let reply: UIMessage | undefined
  for await (const message of readUIMessageStream<UIMessage>({ stream })) reply = message
  if (reply === undefined) throw new Error('no reply')
  await persistence.save([...history, reply])
  return reply
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] })

describe('a server route reports its calls to the browser (projectedMessageMetadata → the saved reply → the call record)', () => {
  it('records a server-side tool loop as one call with its three steps, its usage summed, cache reads and writes, stop reason and timings', async () => {
    const { threads, persistence, transport } = await setUp('loop')
    const before = Date.now()
    const reply = await turn(persistence, transport, [user('u1', 'Where are my orders 40 and 41?')])
    const thread = await threads.load('loop')
    const calls = threadCalls(thread)
    expect(calls).toHaveLength(1)
    const [call] = calls
    expect(call?.callId).toBe(`${reply.id}:0`)
    expect(call?.toolCallCount).toBe(2)
    expect(call?.seqs.map((seq) => (thread.bySeq(seq) as Entry).refs.iteration)).toEqual([0, 0, 1, 1, 2])
    const record = call?.record?.stored
    expect(record).toMatchObject({
      model: 'shop-model',
      stopReason: 'stop',
      inputTokens: 100 + 140 + 200,
      outputTokens: 12 + 12 + 8,
      cachedInputTokens: 150,
      cacheWriteInputTokens: 30,
      sentMessages: 1,
    })
    expect(record?.localInputTokens).toBeGreaterThan(0)
    expect(record?.startedAt).toBeGreaterThanOrEqual(before)
    expect(record?.firstTokenMs).toBeGreaterThanOrEqual(0)
    expect(record?.durationMs).toBeGreaterThanOrEqual(record?.firstTokenMs ?? Number.POSITIVE_INFINITY)
    expect(
      record?.steps?.map((step) => [step.stopReason, step.inputTokens, step.outputTokens, step.cachedInputTokens, step.cacheWriteInputTokens]),
    ).toEqual([
      ['tool-calls', 100, 12, 50, 10],
      ['tool-calls', 140, 12, 50, 10],
      ['stop', 200, 8, 50, 10],
    ])
    for (const step of record?.steps ?? []) expect(step.durationMs).toBeGreaterThanOrEqual(step.firstTokenMs ?? 0)
    // The Calls tab reads the same record through the client: usage, not "usage not recorded".
    expect(call?.record?.usage).toEqual({ inputTokens: 440, outputTokens: 32, cachedInputTokens: 150, cacheWriteInputTokens: 30 })
    expect(call?.record?.stopReason).toBe('stop')
  })

  it('records a one-step answer with its usage and timings, and the next turn as a call of its own', async () => {
    const { threads, persistence, transport } = await setUp('plain')
    const first = await turn(persistence, transport, [user('u1', 'Hello')])
    await turn(persistence, transport, [user('u1', 'Hello'), first, user('u2', 'Thanks')])
    const calls = threadCalls(await threads.load('plain'))
    expect(calls.map((call) => [call.record?.stored?.stopReason, call.record?.usage?.inputTokens, call.record?.stored?.steps])).toEqual([
      ['stop', 200, undefined],
      ['stop', 200, undefined],
    ])
    expect(calls[1]?.record?.stored?.sentMessages).toBe(3)
    for (const call of calls) expect(call.record?.stored?.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('ignores unreadable or foreign call metadata, says so once, and keeps the record made when the request was sent', async () => {
    const problems: InvalidCallMetadataError[] = []
    const { threads, persistence, transport } = await setUp('tampered', { onInvalidMetadata: (problem) => problems.push(problem) })
    const reply = await turn(persistence, transport, [user('u1', 'Hello')])
    const history = [user('u1', 'Hello'), reply, user('u2', 'again')]
    const stream = await submit(transport, 'tampered', history)
    let second: UIMessage | undefined
    for await (const message of readUIMessageStream<UIMessage>({ stream })) second = message
    const callId = `${second?.id}:0`
    const damaged: UIMessage = {
      ...(second as UIMessage),
      metadata: {
        app: 'kept',
        threadlens: { v: 1, calls: { [callId]: { stopReason: 'stop', usage: { inputTokens: -5, outputTokens: 'many' }, steps: [] } } },
      },
    }
    await persistence.save([...history, damaged])
    await persistence.save([...history, damaged])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toBeInstanceOf(InvalidCallMetadataError)
    expect(problems[0]?.issues.map((issue) => issue.path)).toContain(`threadlens.calls.${callId}.usage.inputTokens`)
    const record = threadCalls(await threads.load('tampered')).at(-1)?.record?.stored
    expect(record?.stopReason).toBe('unknown')
    expect(record?.inputTokens).toBeUndefined()
    expect(record?.startedAt).toBeGreaterThan(0)

    // A report for another message's call changes nothing here.
    const foreign: UIMessage = {
      id: 'a-foreign',
      role: 'assistant',
      parts: [{ type: 'text', text: 'x' }],
      metadata: { threadlens: { v: 1, calls: { [callId]: { stopReason: 'stop', steps: [{ stopReason: 'stop' }, { stopReason: 'stop' }] } } } },
    }
    await persistence.save([...history, damaged, foreign])
    expect(threadCalls(await threads.load('tampered')).at(-1)?.callId).toBe('a-foreign:0')
  })
})

describe('the README’s server route', () => {
  it('is examples/server-route.ts, whole', async () => {
    const [readme, route] = await Promise.all([
      readFile(new URL('../README.md', import.meta.url), 'utf8'),
      readFile(new URL('../examples/server-route.ts', import.meta.url), 'utf8'),
    ])
    expect(readme).toContain(`\`\`\`ts\n${route}\`\`\``)
  })
})
