import { createSession, type SessionEvent } from '@threadlens/agent'
import { createTokenCounter, decideCompaction, project, type TokenCounter } from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'
import { reasoningView } from '@threadlens/core/views'
import { createMemoryBackedStores } from '@threadlens/store'
import { beforeAll, describe, expect, test } from 'vitest'
import { longSessionInputs } from '../long-session/long-session-inputs'
import { findPolicyChoice, presetChoices } from '../policy/chat-policies'
import { demoTools } from '../tools/demo-tools'
import { modelSetup } from './model-setup'
import { ScriptedFailure } from './demo-script'

const memoryId = 'assistant'
const short = findPolicyChoice(presetChoices, 'short').policy
let counter: TokenCounter

beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

/** The demo's offline model, tools and memory over in-memory stores, as the chat app wires them. */
async function setUp(options: { recall?: boolean } = {}) {
  const stores = createMemoryBackedStores()
  const record = await stores.threads.create({ title: 'test' })
  const { client, summarizer } = modelSetup({ provider: 'offline' }, { delayMs: 0, chunkSize: 16 })
  const session = createSession({
    threads: stores.threads,
    threadId: record.id,
    model: client,
    tools: demoTools(stores.memory, memoryId),
    policy: short,
    counter,
    summarizer,
    memory: () => stores.memory.get(memoryId),
    ...(options.recall === true ? { recall: createRecallIndex() } : {}),
  })
  const send = async (text: string): Promise<SessionEvent[]> => {
    const events: SessionEvent[] = []
    for await (const event of session.send(text, { policy: short })) events.push(event)
    return events
  }
  const items = async () => reasoningView(await stores.threads.load(record.id))
  return { stores, record, session, send, items }
}

describe('the offline model with the demo tools', () => {
  test('arithmetic: a calculator call, its result, then an answer from the result', async () => {
    const { send, items } = await setUp()
    const events = await send('What is 17% of 2,340?')
    expect(events.filter((event) => event.type === 'projection-end')).toHaveLength(2)
    expect(events.at(-1)).toMatchObject({ type: 'done', text: '(17 / 100 * 2340) = 397.8.' })
    expect(await items()).toMatchObject([
      { kind: 'message', role: 'user' },
      { kind: 'message', role: 'assistant', content: 'Let me calculate that.' },
      { kind: 'tool', name: 'calculator', status: 'ok', output: '{"expression":"(17 / 100 * 2340)","result":397.8}' },
      { kind: 'message', role: 'assistant', content: '(17 / 100 * 2340) = 397.8.' },
    ])
  })

  test('a bad expression is a tool error the answer reports, never evaluated as code', async () => {
    const { send, items } = await setUp()
    await send('compute 2 ** 3')
    const tool = (await items()).find((item) => item.kind === 'tool')
    expect(tool).toMatchObject({ status: 'error', output: 'unexpected "*" at position 4' })
  })

  test('conversions, and a note saved to memory that every later call sees', async () => {
    const { send, stores } = await setUp()
    expect((await send('convert 5 km to miles')).at(-1)).toMatchObject({ text: '5 km is 3.10686 mi.' })
    expect((await send('Remember that my flight leaves at 9:40')).at(-1)).toMatchObject({
      text: expect.stringContaining('Saved to memory as "flight-leaves-9-40"'),
    })
    expect((await stores.memory.get(memoryId)).spaces.world.data).toEqual({ 'flight-leaves-9-40': 'my flight leaves at 9:40' })
    const reply = (await send('hello')).at(-1)
    expect(reply).toMatchObject({ type: 'done', text: expect.stringContaining('1 note from memory') })
    expect((await send('what do you remember?')).at(-1)).toMatchObject({
      text: 'From my memory segment: flight-leaves-9-40: my flight leaves at 9:40.',
    })
    await send('note: the hotel has "free" breakfast: 7-10')
    expect((await send('what do you remember?')).at(-1)).toMatchObject({
      text: 'From my memory segment: flight-leaves-9-40: my flight leaves at 9:40; hotel-has-free-breakfast: the hotel has "free" breakfast: 7-10.',
    })
  })

  test('read_document: thousands of lines, cut before they enter the thread, answered from head and tail', async () => {
    const { send, items } = await setUp()
    const done = (await send('read the quarterly report')).at(-1)
    const tool = (await items()).find((item) => item.kind === 'tool')
    expect(tool).toMatchObject({ name: 'read_document', status: 'ok', truncated: { totalLines: 3011 } })
    expect(done).toMatchObject({
      type: 'done',
      text: expect.stringMatching(/^I read "quarterly report": \d+ lines reached me, the output was cut before it entered the thread/),
    })
  })

  test('/error: the model fails, the error is reported and the thread keeps the user message', async () => {
    const { send, items } = await setUp()
    await send('hello')
    const events = await send('/error')
    const error = events.find((event) => event.type === 'error')
    expect(error).toMatchObject({ type: 'error', error: expect.any(ScriptedFailure) })
    const after = await items()
    expect(after.at(-1)).toMatchObject({ kind: 'message', role: 'user', content: '/error' })
    expect((await send('still there?')).at(-1)).toMatchObject({ type: 'done' })
  })

  test('a long session leaves history out of the window; compacting summarizes it, and the summary fits', async () => {
    const { send, stores, record, session } = await setUp()
    await stores.threads.appendMany(record.id, longSessionInputs({ turns: 240, batchId: 'ls1' }))
    const before = project({ thread: await stores.threads.load(record.id), policy: short, counter })
    expect(before.meta.truncated).toBe(true)
    // History a cache-friendly window left out calls for a summary.
    expect(before.meta.needsSummaryReason).toBe('history-dropped')
    expect(decideCompaction(before, short).action).toBe('compact')
    await session.compactNow(short)
    const events = await send('hello again')
    const thread = await stores.threads.load(record.id)
    expect(thread.byKind('summary')).toHaveLength(1)
    const after = project({ thread, policy: short, counter })
    expect(after.meta.summaryUsed).toBe(true)
    expect(after.meta.tokens.total).toBeLessThanOrEqual(after.meta.budget.input)
    expect(decideCompaction(after, short).action).toBe('none')
    expect(events.at(-1)).toMatchObject({ type: 'done', text: expect.stringContaining('a summary of entries #0') })
  })
})

test('with recall on a long thread, the recalled block (sent last) is not taken for a tool result: a note is saved', async () => {
  const { stores, record, send, items } = await setUp({ recall: true })
  await stores.threads.appendMany(record.id, longSessionInputs({ turns: 240, batchId: 'ls2' }))
  const events = await send('Remember that the ferry leaves at 7:15')
  const first = events.find((event) => event.type === 'projection-end')
  expect(first).toMatchObject({ projection: { meta: { recall: { skipped: undefined } } } })
  expect((await items()).slice(-3)).toMatchObject([
    { kind: 'message', role: 'assistant' },
    { kind: 'tool', name: 'save_note', status: 'ok' },
    { kind: 'message', role: 'assistant' },
  ])
  expect(events.at(-1)).toMatchObject({ type: 'done', text: expect.stringContaining('Saved to memory') })
})

test('long-session inputs are valid, deterministic and of realistic size', async () => {
  const inputs = longSessionInputs({ turns: 240, batchId: 'b' })
  expect(longSessionInputs({ turns: 240, batchId: 'b' })).toEqual(inputs)
  expect(inputs.length).toBeGreaterThan(600)
  expect(inputs.filter((input) => input.kind === 'message' && input.payload.role === 'user')).toHaveLength(240)
  const stores = createMemoryBackedStores()
  const record = await stores.threads.create()
  await stores.threads.appendMany(record.id, inputs)
  expect((await stores.threads.get(record.id))?.entryCount).toBe(inputs.length)
})

describe('the offline model and attachments', () => {
  test('mentions the images and files of the latest message, as its projection holds them', async () => {
    const { createMemoryAttachmentStore, imagePart, filePart } = await import('@threadlens/store/attachments')
    const { stores, record } = await setUp()
    const attachments = createMemoryAttachmentStore()
    const withAttachments = createSession({
      threads: stores.threads,
      threadId: record.id,
      model: modelSetup({ provider: 'offline' }, { delayMs: 0, chunkSize: 16 }).client,
      policy: short,
      counter,
      attachments,
    })
    const image = await attachments.put(record.id, new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { width: 640, height: 480 })
    const file = await attachments.put(record.id, new Blob(['%PDF-1.4'], { type: 'application/pdf' }))
    const events: SessionEvent[] = []
    for await (const event of withAttachments.send('What are these?', { policy: short, parts: [imagePart(image), filePart(file, 'report.pdf')] }))
      events.push(event)
    const done = events.find((event) => event.type === 'done')
    expect(done).toMatchObject({ type: 'done' })
    expect((done as { text: string }).text).toContain('I received an image of 640×480 pixels and a file named “report.pdf”')
  })
})
