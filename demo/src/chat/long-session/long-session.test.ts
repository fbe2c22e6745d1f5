import { createSession, type SessionEvent } from '@threadlens/agent'
import { createTokenCounter, type TokenCounter } from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'
import { createMemoryBackedStores } from '@threadlens/store'
import { beforeAll, describe, expect, test } from 'vitest'
import { modelSetup } from '../model/model-setup'
import { findPolicyChoice, presetChoices } from '../policy/chat-policies'
import { appendLongSession } from './append-long-session'
import { longSessionInputs, recallFact } from './long-session-inputs'

const short = findPolicyChoice(presetChoices, 'short').policy
let counter: TokenCounter

beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

describe('the long session asks about something from 210 turns back', () => {
  test('tells the fact early and asks about it in its last turn', () => {
    const inputs = longSessionInputs({ turns: 240, batchId: 'b' })
    const users = inputs
      .filter((input) => input.kind === 'message' && input.payload.role === 'user')
      .map((input) => (input.payload as { content: string }).content)
    expect(users).toHaveLength(240)
    expect(users.indexOf(recallFact.user)).toBe(240 - 1 - recallFact.turnsBack)
    expect(users.at(-1)).toBe(recallFact.question)
    // A short batch still ends with the question, the fact in its first turn.
    const few = longSessionInputs({ turns: 3, batchId: 'c' }).filter((input) => input.kind === 'message' && input.payload.role === 'user')
    expect(few.map((input) => (input.payload as { content: string }).content)).toEqual([recallFact.user, expect.any(String), recallFact.question])
  })

  test('the chat policy recalls the fact for the last question, and the notice says so', async () => {
    expect(short.recall).toBeDefined()
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create({ title: 'long' })
    const notice = await appendLongSession(stores.threads, record.id, short, counter, [], undefined)
    expect(notice).toMatch(/^Appended 240 turns \(\d+ entries\)\. \d+ entries are now outside the context \(greyed\)/)
    expect(notice).toMatch(
      /Its last question asks about something from 210 turns back: recall brings \d+ older entries back into the next call; the best match is #\d+ \(matched [a-zê, ]*workshop[a-z, ]*\)\.$/,
    )
  })

  test('a session given a recall index sends the recalled fact with the next call', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create({ title: 'recall' })
    await stores.threads.appendMany(record.id, longSessionInputs({ turns: 240, batchId: 'ls1' }))
    const { client, summarizer } = modelSetup({ provider: 'offline' }, { delayMs: 0, chunkSize: 16 })
    const session = createSession({
      threads: stores.threads,
      threadId: record.id,
      model: client,
      policy: short,
      counter,
      summarizer,
      recall: createRecallIndex(),
    })
    const events: SessionEvent[] = []
    for await (const event of session.send('Remind me: which tile-painting workshop did Inês recommend?', { policy: short })) events.push(event)
    const projected = events.find((event) => event.type === 'projection-end')
    const meta = projected?.type === 'projection-end' ? projected.projection.meta : undefined
    expect(meta?.recall?.skipped).toBeUndefined()
    expect(meta?.recall?.hits[0]?.terms).toContain('workshop')
    const block =
      projected?.type === 'projection-end' ? projected.projection.messages.find((_, index) => meta?.messages[index]?.segment === 'recall') : undefined
    expect(block?.content).toContain('Oficina Azulejo')
    session.close()
  })
})
