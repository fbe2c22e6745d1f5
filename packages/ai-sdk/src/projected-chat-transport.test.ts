import { createTokenCounter, definePolicy, extractiveSummarizer, type TokenCounter } from '@threadlens/core'
import { hashJson } from '@threadlens/core/internal'
import { createMemoryBackedStores } from '@threadlens/store'
import { jsonSchema, readUIMessageStream, tool, type UIMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { createProjectedChatTransport, type ProjectedCall } from './projected-chat-transport'
import { scriptedChatModel } from './testing/scripted-chat-model'
import { submit } from './testing/chat-requests'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

const weather = tool({
  description: 'Current weather for a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, celsius: 4 }),
})

async function send(
  transport: ReturnType<typeof createProjectedChatTransport>,
  messages: UIMessage[],
  trigger: 'submit-message' | 'regenerate-message' = 'submit-message',
): Promise<UIMessage[]> {
  const stream = await transport.sendMessages({ trigger, chatId: 'c', messageId: undefined, messages, abortSignal: undefined })
  const last = messages.at(-1)
  let reply: UIMessage | undefined
  for await (const message of readUIMessageStream({ stream, ...(last?.role === 'assistant' ? { message: last } : {}) })) reply = message
  if (reply === undefined) throw new Error('no reply')
  return last?.role === 'assistant' ? [...messages.slice(0, -1), reply] : [...messages, reply]
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] })

describe('createProjectedChatTransport', () => {
  it('stores the ask before the model answers, runs the tool, and records each call for the devtools', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'weather' })
    const model = scriptedChatModel()
    const calls: ProjectedCall[] = []
    const policy = definePolicy({ systemPrompt: 'You are terse.' })
    const transport = createProjectedChatTransport({
      persistence,
      model,
      policy,
      counter,
      tools: { weather },
      onCall: (call) => calls.push(call),
      recordWaitMs: 1000,
    })

    let messages = await send(transport, [user('u1', 'weather in Oslo')])
    const toolPart = messages[1]?.parts.find((part) => part.type === 'tool-weather')
    expect(toolPart).toMatchObject({ state: 'output-available', input: { city: 'Oslo' }, output: { city: 'Oslo', celsius: 4 } })
    // what useChat does with sendAutomaticallyWhen(lastAssistantMessageIsCompleteWithToolCalls)
    messages = await send(transport, messages)
    expect(messages).toHaveLength(2)
    expect(messages[1]?.parts.filter((part) => part.type === 'text').map((part) => part.type === 'text' && part.text)).toEqual([
      'The weather tool says: {"city":"Oslo","celsius":4}',
    ])
    await send(transport, [...messages, user('u2', 'thanks')])

    expect(model.doStreamCalls).toHaveLength(3)
    // the model received exactly the projection, system prompt first
    expect(model.doStreamCalls[0]?.prompt.map((message) => message.role)).toEqual(['system', 'user'])
    expect(model.doStreamCalls[1]?.prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    expect(calls.map((call) => call.callId)).toEqual([`${messages[1]?.id}:0`, `${messages[1]?.id}:1`, expect.stringMatching(/:0$/)])

    await expect.poll(async () => (await threads.load('weather')).entries.filter((entry) => entry.meta?.call !== undefined).length).toBe(3)
    const entries = (await threads.load('weather')).entries
    const recorded = entries.filter((entry) => entry.meta?.call !== undefined)
    expect(recorded.map((entry) => entry.refs.callId)).toEqual(calls.map((call) => call.callId))
    recorded.forEach((entry, index) => {
      const call = entry.meta?.call
      expect(call?.messagesHash).toBe(hashJson(calls[index]?.projection.messages))
      expect(call).toMatchObject({
        model: 'scripted-chat',
        provider: 'threadlens-demo',
        counter: 'o200k_base',
        stopReason: index === 0 ? 'tool-calls' : 'stop',
      })
      expect(call?.inputTokens).toBeGreaterThan(0)
    })
    // the policy and tool schemas are stored once, then referenced by hash
    expect(recorded.filter((entry) => entry.meta?.call?.policy !== undefined)).toHaveLength(1)
    expect(recorded[0]?.meta?.call?.tools).toEqual([
      {
        name: 'weather',
        description: 'Current weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ])
  })

  it('sends the policy projection, not the whole history, in a long session', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'long' })
    const model = scriptedChatModel()
    const calls: ProjectedCall[] = []
    const policy = definePolicy({ maxInputTokens: 400, reserveOutputTokens: 100, systemPrompt: 'Be brief.' })
    const transport = createProjectedChatTransport({ persistence, model, policy, counter, onCall: (call) => calls.push(call) })
    let messages: UIMessage[] = []
    for (let turn = 0; turn < 12; turn += 1)
      messages = await send(transport, [...messages, user(`u${turn}`, `message number ${turn}: ${'lorem ipsum dolor sit amet '.repeat(3)}`)])
    await expect.poll(async () => (await persistence.load()).length).toBe(24)
    const last = calls.at(-1)
    expect(last?.projection.meta.truncated).toBe(true)
    expect(last?.projection.meta.tokens.total).toBeLessThanOrEqual(last?.projection.meta.budget.input ?? 0)
    expect(model.doStreamCalls.at(-1)?.prompt.length).toBeLessThan(24)
    expect(model.doStreamCalls.at(-1)?.prompt.length).toBe((last?.instructions?.length ?? 0) + (last?.messages.length ?? 0))
  })

  it('summarizes what no longer fits, appending a summary and keeping every message', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'summary' })
    const calls: ProjectedCall[] = []
    const policy = definePolicy({ maxInputTokens: 500, reserveOutputTokens: 100, keepLastTurns: 2 })
    const transport = createProjectedChatTransport({
      persistence,
      model: scriptedChatModel(),
      policy,
      counter: Promise.resolve(counter),
      summarizer: extractiveSummarizer(),
      onCall: (call) => calls.push(call),
    })
    let messages: UIMessage[] = []
    for (let turn = 0; turn < 12; turn += 1)
      messages = await send(transport, [...messages, user(`u${turn}`, `turn ${turn}: ${'we planned the trip to Kyoto in detail '.repeat(3)}`)])
    await expect.poll(async () => (await persistence.load()).length).toBe(24)
    const entries = (await threads.load('summary')).entries
    expect(entries.filter((entry) => entry.kind === 'summary').length).toBeGreaterThan(0)
    expect(entries.filter((entry) => entry.kind === 'message')).toHaveLength(24)
    const last = calls.at(-1)
    expect(last?.projection.meta.summaryUsed).toBe(true)
    expect(last?.projection.meta.tokens.total).toBeLessThanOrEqual(last?.projection.meta.budget.input ?? 0)
  })

  it('a failing provider leaves the ask stored and no empty reply, and the next send goes straight through', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'failing' })
    let attempts = 0
    const model = new MockLanguageModelV4({
      doStream: async () => {
        attempts += 1
        throw new Error('503 from the provider')
      },
    })
    const transport = createProjectedChatTransport({
      persistence,
      model,
      policy: definePolicy({}),
      counter,
      streamTextOptions: { maxRetries: 0 },
      recordWaitMs: 60_000,
    })
    const errors: unknown[] = []
    const stream = await submit(transport, 'c', [user('u1', 'hello')])
    for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push(error), terminateOnError: false })) void message
    expect(attempts).toBe(1)
    expect((await persistence.load()).map((message) => message.id)).toEqual(['u1'])
    const started = Date.now()
    const again = await submit(transport, 'c', [user('u1', 'hello')])
    await again.pipeTo(new WritableStream())
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(attempts).toBe(2)
  })

  it('regenerate sends from a branch without the replaced answer', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'regen' })
    await persistence.load()
    const model = scriptedChatModel()
    const transport = createProjectedChatTransport({ persistence, model, policy: definePolicy({}), counter })
    const first = await send(transport, [user('u1', 'hello')])
    await expect.poll(async () => (await threads.load('regen')).entries.length).toBe(2)
    const again = await send(transport, first.slice(0, 1), 'regenerate-message')
    expect(model.doStreamCalls[1]?.prompt.map((message) => message.role)).toEqual(['user'])
    await expect.poll(async () => (await persistence.load()).map((message) => message.id)).toEqual(again.map((message) => message.id))
    expect(persistence.currentThreadId()).toBe('regen:v1')
    expect((await threads.load('regen')).entries).toHaveLength(2)
  })
})
