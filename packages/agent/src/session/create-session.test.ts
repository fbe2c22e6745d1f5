import { BudgetOverflowError, createTokenCounter, definePolicy, type Entry, type TokenCounter } from '@threadlens/core'
import { createMemoryBackedStores, type ThreadStore } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { anthropic } from '../model/anthropic'
import { ContextTooLongError } from '../model/errors'
import { openAICompatible } from '../model/openai-compatible'
import { scriptedModel, type ScriptStep } from '../model/scripted-model'
import { startFakeProviderServer, useFakeServers } from '@threadlens/testing/node'
import { defineTool } from '../tools/define-tool'
import { replayCall } from '@threadlens/core'
import { createSession } from './create-session'
import type { SessionOptions } from './session-options'
import { SessionBusyError } from './errors'
import type { SessionEvent } from './session-events'

const counter = await createTokenCounter('o200k_base')

// Repeated on purpose: same setup shape as packages/agent/src/session/adversarial-providers.test.ts (each suite
// defines the tool its cases call).
const track = useFakeServers()

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string().min(1) }),
  idempotent: true,
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? 3 : 9 }),
})

async function setup(script: readonly ScriptStep[] | undefined, options: Partial<SessionOptions> = {}) {
  const { threads } = createMemoryBackedStores({ counters: [counter] })
  const record = await threads.create({ title: 'test' })
  const model = scriptedModel({ script: script ?? ['ok'] })
  const session = createSession({ threads, threadId: record.id, model, tools: [weather], counter, ...options })
  return { threads, threadId: record.id, model, session }
}

async function collect(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const all: SessionEvent[] = []
  for await (const event of events) all.push(event)
  return all
}

async function entriesOf(threads: ThreadStore, threadId: string): Promise<readonly Entry[]> {
  return (await threads.load(threadId)).entries
}

describe('session loop', () => {
  it('writes the user message first, streams the reply, records the call so it can be replayed exactly', async () => {
    const { threads, threadId, session } = await setup(['Hello there, traveller.'])
    const events = await collect(session.send('Hi!'))
    expect(events.map((event) => event.type)).toEqual(['request-start', 'projection-end', ...Array(6).fill('text-delta'), 'usage', 'done'])
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Hello there, traveller.', stopReason: 'stop' })
    const entries = await entriesOf(threads, threadId)
    expect(entries.map((entry) => [entry.kind, entry.payload])).toEqual([
      ['message', { role: 'user', content: 'Hi!' }],
      ['message', { role: 'assistant', content: 'Hello there, traveller.' }],
    ])
    const call = entries[1]?.meta?.call
    expect(call).toMatchObject({ model: 'scripted', counter: 'o200k_base', basisSeq: 1, stopReason: 'stop' })
    expect(call?.policy).toBeDefined()
    const replayed = replayCall(entries, entries[1]?.refs.callId as string, { counter })
    expect(replayed.verified).toBe(true)
    expect(replayed.projection.messages).toEqual([{ role: 'user', content: 'Hi!' }])
    expect(session.status).toBe('idle')
  })

  it("takes a counter's promise and waits for it on send, so the call is counted and recorded exactly", async () => {
    let resolve: (value: TokenCounter) => void = () => undefined
    const pending = new Promise<TokenCounter>((done) => (resolve = done))
    const { threads, threadId, session } = await setup(['Fine.'], { counter: pending })
    const sent = collect(session.send('Hi!'))
    resolve(counter)
    const events = await sent
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Fine.' })
    const call = (await entriesOf(threads, threadId))[1]?.meta?.call
    expect(call).toMatchObject({ counter: 'o200k_base' })
  })

  it('runs parallel tool calls in parallel, appends calls and results, and goes on until the answer', async () => {
    const started: string[] = []
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = defineTool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        started.push(city)
        if (started.length === 2) release()
        await gate // both must have started before either returns
        return `${city}: fine`
      },
    })
    const { threads, threadId, session, model } = await setup(
      [
        {
          text: 'Checking both.',
          toolCalls: [
            { name: 'weather', arguments: { city: 'Oslo' } },
            { name: 'weather', arguments: { city: 'Bergen' } },
          ],
        },
        'Both are fine.',
      ],
      { tools: [slow] },
    )
    const events = await collect(session.send('Weather in Oslo and Bergen?'))
    expect(started.sort()).toEqual(['Bergen', 'Oslo'])
    expect(events.filter((event) => event.type === 'tool-result')).toHaveLength(2)
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Both are fine.' })
    const entries = await entriesOf(threads, threadId)
    expect(entries.map((entry) => entry.kind)).toEqual(['message', 'message', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'message'])
    const [assistant, callA, callB] = [entries[1], entries[2], entries[3]] as [Entry, Entry, Entry]
    expect(callA.refs.callId).toBe(assistant.refs.callId)
    expect(callB.refs.callId).toBe(assistant.refs.callId)
    expect(new Set(entries.map((entry) => entry.refs.requestId))).toEqual(new Set([entries[0]?.refs.requestId]))
    expect(entries[6]?.refs.iteration).toBe(1)
    // The second call saw the calls and both results; both calls replay exactly.
    expect(model.requests[1]?.projection.messages.filter((message) => message.role === 'tool')).toHaveLength(2)
    for (const entry of entries.filter((candidate) => candidate.meta?.call !== undefined)) {
      expect(replayCall(entries, entry.refs.callId as string, { counter }).verified).toBe(true)
    }
  })

  it('turns tool failures into tool results, never a crash', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Fails',
      parameters: z.object({}),
      execute: () => Promise.reject(new Error('disk on fire')),
    })
    const notJson = defineTool({ name: 'not_json', description: 'Bad output', parameters: z.object({}), execute: () => (() => 1) as never })
    const circular = defineTool({
      name: 'circular',
      description: 'Returns a cycle',
      parameters: z.object({}),
      execute: () => {
        const output: Record<string, unknown> = { ok: true }
        output['self'] = output
        return output as never
      },
    })
    const { threads, threadId, session } = await setup(
      [
        {
          toolCalls: [
            { name: 'broken', arguments: {} },
            { name: 'weather', arguments: { city: '' } },
            { name: 'nope', arguments: {} },
            { name: 'weather', arguments: '{"city": "Os' },
            { name: 'not_json', arguments: {} },
            { name: 'circular', arguments: {} },
          ],
        },
        'Sorry about that.',
      ],
      { tools: [weather, broken, notJson, circular] },
    )
    const events = await collect(session.send('Do things'))
    expect(events.at(-1)).toMatchObject({ type: 'done' })
    const results = (await entriesOf(threads, threadId)).filter((entry) => entry.kind === 'tool_result')
    const errors = results.map((entry) => (entry.payload as { error?: string }).error)
    expect(errors).toHaveLength(6)
    expect(errors).toEqual(
      expect.arrayContaining([
        'disk on fire',
        expect.stringMatching(/^invalid arguments: city: /),
        expect.stringMatching(/^unknown tool "nope"; available: weather, broken, not_json, circular/),
        'the tool returned something that is not JSON at self: circular reference: the value contains itself',
        expect.stringMatching(/^invalid arguments: /),
        expect.stringMatching(/^the tool returned something that is not JSON/),
      ]),
    )
  })

  it('cuts long tool output by policy before it enters the thread, and says so', async () => {
    const reader = defineTool({ name: 'read_document', description: 'Reads', parameters: z.object({}), execute: () => 'line\n'.repeat(5000) })
    const { threads, threadId, session } = await setup([{ toolCalls: [{ name: 'read_document', arguments: {} }] }, 'Done.'], {
      tools: [reader],
      policy: definePolicy({ toolOutputMaxLines: 10 }),
    })
    const events = await collect(session.send('Read it'))
    expect(events.some((event) => event.type === 'tool-output-truncate')).toBe(true)
    const result = (await entriesOf(threads, threadId)).find((entry) => entry.kind === 'tool_result')
    expect(result?.meta?.truncated).toEqual({ by: 'lines', totalLines: 5001, totalBytes: 25000 })
  })

  it('ends runaway loops with max-iterations, the thread valid', async () => {
    const { threads, threadId, session } = await setup(undefined, {
      model: scriptedModel({ script: () => ({ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }) }),
      maxIterations: 3,
    })
    const events = await collect(session.send('Loop forever'))
    expect(events.at(-1)).toEqual({ type: 'max-iterations', requestId: expect.any(String), iterations: 3 })
    const entries = await entriesOf(threads, threadId)
    expect(entries.filter((entry) => entry.kind === 'tool_call')).toHaveLength(3)
    expect(entries.filter((entry) => entry.kind === 'tool_result')).toHaveLength(3)
  })

  it('on abort while streaming, keeps the partial reply marked interrupted', async () => {
    const { threads, threadId, session } = await setup(undefined, {
      model: scriptedModel({ script: ['A long answer that will be cut short by the user.'], chunkSize: 2, delayMs: 5 }),
    })
    const events: SessionEvent[] = []
    for await (const event of session.send('Tell me')) {
      events.push(event)
      if (event.type === 'text-delta' && events.filter((candidate) => candidate.type === 'text-delta').length === 3) session.abort()
    }
    expect(events.at(-1)?.type).toBe('error')
    const reply = (await entriesOf(threads, threadId))[1]
    expect(reply?.payload).toEqual({ role: 'assistant', content: 'A long' })
    expect(reply?.meta?.interrupted).toBe(true)
    expect(reply?.meta?.call?.stopReason).toBe('abort')
  })

  it('on abort while tools run, records them as interrupted', async () => {
    let started: () => void = () => undefined
    const running = new Promise<void>((resolve) => (started = resolve))
    const stuck = defineTool({
      name: 'stuck',
      description: 'Waits for the signal',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          started()
          signal.addEventListener('abort', () => reject(new Error('stopped')))
        }),
    })
    const { threads, threadId, session } = await setup([{ toolCalls: [{ name: 'stuck', arguments: {} }] }], { tools: [stuck] })
    const pending = collect(session.send('Go'))
    await running
    expect(session.status).toBe('awaiting-tools')
    session.abort()
    const events = await pending
    expect(events.at(-1)?.type).toBe('error')
    const result = (await entriesOf(threads, threadId)).find((entry) => entry.kind === 'tool_result')
    expect(result?.payload).toMatchObject({ name: 'stuck', error: expect.stringContaining('interrupted') })
    expect(result?.meta?.interrupted).toBe(true)
  })

  it('when the provider says the context is too long: compacts, retries once, and answers', async () => {
    const { threads, threadId, session, model } = await setup(
      [
        {
          error: new ContextTooLongError(
            {
              provider: 'scripted',
              model: 'scripted',
              status: 400,
              providerMessage: 'too long',
              code: 'context_length_exceeded',
              requestId: undefined,
            },
            undefined,
            undefined,
          ),
        },
        'Short answer.',
      ],
      { policy: definePolicy({ keepLastTurns: 1 }) },
    )
    for (let turn = 0; turn < 6; turn++) {
      await threads.appendMany(threadId, [
        { kind: 'message', payload: { role: 'user', content: `Earlier question ${turn} about fjords.` } },
        { kind: 'message', payload: { role: 'assistant', content: `Earlier answer ${turn}: take the ferry.` } },
      ])
    }
    const events = await collect(session.send('And now?'))
    expect(events.map((event) => event.type)).toContain('compaction-end')
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Short answer.' })
    const entries = await entriesOf(threads, threadId)
    expect(entries.filter((entry) => entry.kind === 'summary')).toHaveLength(1)
    expect(model.requests).toHaveLength(2)
    expect(model.requests[1]?.projection.meta.summaryUsed).toBe(true)
  })

  it('compacts before the call when the projection needs a summary', async () => {
    const { threads, threadId, session } = await setup(['Fine.'], {
      policy: definePolicy({ maxInputTokens: 400, reserveOutputTokens: 50, keepLastTurns: 1 }),
      memory: () => 'The user travels by train.',
    })
    for (let turn = 0; turn < 20; turn++) {
      await threads.appendMany(threadId, [
        { kind: 'message', payload: { role: 'user', content: `Question ${turn}: what about the train from Oslo to Bergen?` } },
        { kind: 'message', payload: { role: 'assistant', content: `Answer ${turn}: it takes about seven hours.` } },
      ])
    }
    const events = await collect(session.send('Summarize my plans.'))
    const projection = events.find((event) => event.type === 'projection-end')
    expect(events.findIndex((event) => event.type === 'compaction-end')).toBeLessThan(events.indexOf(projection as SessionEvent))
    expect(projection?.type === 'projection-end' && projection.projection.meta.summaryUsed).toBe(true)
    // The compaction's figures are the request's own (tool schemas and memory in), as the meter shows them.
    const compacted = events.find((event) => event.type === 'compaction-end')
    const meta = projection?.type === 'projection-end' ? projection.projection.meta : undefined
    expect(meta?.tokens.tools).toBeGreaterThan(0)
    expect(meta?.tokens.memory).toBeGreaterThan(0)
    expect(compacted?.type === 'compaction-end' && compacted.tokensAfter).toBe(meta?.tokens.total)
  })

  it('stops with a typed error when even the mandatory part cannot fit, history intact', async () => {
    const { threads, threadId, session } = await setup(['never'], { policy: definePolicy({ maxInputTokens: 60, reserveOutputTokens: 10 }) })
    const events = await collect(session.send('word '.repeat(200)))
    const last = events.at(-1)
    expect(last?.type === 'error' && last.error).toBeInstanceOf(BudgetOverflowError)
    expect((await entriesOf(threads, threadId)).map((entry) => entry.kind)).toEqual(['message'])
  })

  it('defers context operations while a request runs and applies them when it ends', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const waiting = defineTool({ name: 'wait', description: 'Waits', parameters: z.object({}), execute: async () => (await gate, 'ok') })
    const { threads, threadId, session } = await setup([{ toolCalls: [{ name: 'wait', arguments: {} }] }, 'Done.'], { tools: [waiting] })
    const pending = collect(session.send('Go'))
    while (session.status !== 'awaiting-tools') await new Promise((resolve) => setTimeout(resolve, 1))
    const pinned = session.pin(0, 'task')
    expect(session.getSnapshot().deferredOperations).toBe(1)
    expect((await entriesOf(threads, threadId)).some((entry) => entry.kind === 'context_op')).toBe(false)
    release()
    await pending
    await pinned
    const entries = await entriesOf(threads, threadId)
    expect(entries.at(-1)).toMatchObject({ kind: 'context_op', payload: { op: 'pin', target: 0 } })
    await session.reset('new topic')
    expect((await entriesOf(threads, threadId)).at(-1)).toMatchObject({ kind: 'context_op', payload: { op: 'reset' } })
  })

  it('refuses a second request while one runs', async () => {
    const { session } = await setup(undefined, { model: scriptedModel({ script: ['slow reply'], delayMs: 5 }) })
    const first = collect(session.send('one'))
    const second = await collect(session.send('two'))
    expect(second).toEqual([{ type: 'error', requestId: '', error: expect.any(SessionBusyError) }])
    expect((await first).at(-1)?.type).toBe('done')
  })

  it('uses the request policy over the thread policy over the session policy', async () => {
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create({ metadata: { policy: { maxInputTokens: 5000, reserveOutputTokens: 500 } } })
    const model = scriptedModel({ script: () => 'ok' })
    const session = createSession({ threads, threadId: record.id, model, counter, policy: definePolicy({ maxInputTokens: 3000 }) })
    await collect(session.send('a'))
    await collect(session.send('b', { policy: definePolicy({ maxInputTokens: 9000 }) }))
    expect(model.requests.map((request) => request.projection.meta.budget.maxInputTokens)).toEqual([5000, 9000])
  })
})

describe('recovery after a reload', () => {
  it('re-runs idempotent tools, records others as interrupted, and never runs a call twice', async () => {
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create()
    // What a page left behind when it closed mid-tools: two calls, no results.
    await threads.appendMany(record.id, [
      { kind: 'message', payload: { role: 'user', content: 'Weather and booking?' }, refs: { requestId: 'r1' } },
      { kind: 'message', payload: { role: 'assistant', content: '' }, refs: { requestId: 'r1', callId: 'c1' } },
      { kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { requestId: 'r1', callId: 'c1', toolCallId: 'w' } },
      { kind: 'tool_call', payload: { name: 'book', arguments: {} }, refs: { requestId: 'r1', callId: 'c1', toolCallId: 'b' } },
    ])
    let weatherRuns = 0
    let bookRuns = 0
    const countedWeather = defineTool({
      name: 'weather',
      description: 'W',
      parameters: z.object({ city: z.string() }),
      idempotent: true,
      execute: () => (weatherRuns++, 'rain'),
    })
    const book = defineTool({ name: 'book', description: 'B', parameters: z.object({}), execute: () => (bookRuns++, 'booked') })
    const model = scriptedModel({ script: () => 'It rains; the booking did not go through, shall I retry?' })
    const session = createSession({ threads, threadId: record.id, model, counter, tools: [countedWeather, book] })
    const events = await collect(session.resume())
    expect(events.at(-1)).toMatchObject({ type: 'done' })
    expect(weatherRuns).toBe(1)
    expect(bookRuns).toBe(0)
    const results = (await threads.load(record.id)).entries.filter((entry) => entry.kind === 'tool_result')
    expect(results.map((entry) => [entry.refs.toolCallId, entry.payload])).toEqual(
      expect.arrayContaining([
        ['w', { name: 'weather', result: 'rain' }],
        ['b', { name: 'book', error: expect.stringContaining('not idempotent') }],
      ]),
    )
    // Resuming again (another reload) finds nothing to do and runs nothing.
    const again = await collect(createSession({ threads, threadId: record.id, model, counter, tools: [countedWeather, book] }).resume())
    expect(again.at(-1)).toMatchObject({ type: 'done', text: '' })
    expect(weatherRuns).toBe(1)
  })
})

describe("against the providers' wire formats", () => {
  it.each(['openai', 'anthropic'] as const)('%s: a multi-turn session with parallel tools passes every request rule', async (provider) => {
    const server = await startFakeProviderServer({
      script: [
        {
          text: 'Let me check.',
          toolCalls: [
            { name: 'weather', arguments: { city: 'Oslo' } },
            { name: 'weather', arguments: { city: 'Bergen' } },
          ],
        },
        { text: 'Oslo 3°C, Bergen 9°C.' },
        { text: 'Bergen is warmer.' },
      ],
    })
    track(server)
    const model =
      provider === 'openai'
        ? openAICompatible({ baseURL: server.baseURL, apiKey: 'test-key', model: 'gpt-4o-mini' })
        : anthropic({ baseURL: server.baseURL, apiKey: 'test-key', model: 'claude-sonnet-4-5' })
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create()
    const session = createSession({
      threads,
      threadId: record.id,
      model,
      counter,
      tools: [weather],
      policy: definePolicy({ systemPrompt: 'Be brief.' }),
    })
    expect((await collect(session.send('Weather in Oslo and Bergen?'))).at(-1)).toMatchObject({ type: 'done', text: 'Oslo 3°C, Bergen 9°C.' })
    expect((await collect(session.send('Which is warmer?'))).at(-1)).toMatchObject({ type: 'done', text: 'Bergen is warmer.' })
    expect(server.requests).toHaveLength(3)
    for (const request of server.requests) expect(request.problems).toEqual([])
    const entries = (await threads.load(record.id)).entries
    for (const entry of entries.filter((candidate) => candidate.meta?.call !== undefined)) {
      expect(replayCall(entries, entry.refs.callId as string, { counter }).verified).toBe(true)
    }
    // The stored thread holds no key anywhere.
    expect(JSON.stringify(entries)).not.toContain('test-key')
  })
})

describe('memory in the session', () => {
  it("renders the policy's memory spaces into every call and replays them exactly", async () => {
    const { threads, memory } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create()
    await memory.update('agent', 'world', (world) => ({ ...world, destination: 'Oslo' }))
    const model = scriptedModel({ script: () => 'Noted.' })
    const session = createSession({
      threads,
      threadId: record.id,
      model,
      counter,
      policy: definePolicy({ memorySpaces: ['world'] }),
      memory: () => memory.get('agent'),
    })
    await collect(session.send('Where to?'))
    expect(model.requests[0]?.projection.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('destination: "Oslo"') })
    const entries = (await threads.load(record.id)).entries
    const replayed = replayCall(entries, entries[1]?.refs.callId as string, { counter })
    expect(replayed.verified).toBe(true)
  })
})
