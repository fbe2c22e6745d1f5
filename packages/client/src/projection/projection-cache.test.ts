import { createTokenCounter, definePolicy, project, type EntryInput, type Thread, type ToolSchema } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LiveThread } from '../live/live-thread'
import { cachedProjection } from './projection-cache'
import { createRecallIndex } from '@threadlens/core/recall'

// Counts what reaches the projector, keeping its behaviour.
vi.mock('@threadlens/core', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@threadlens/core')>()
  return { ...actual, project: vi.fn(actual.project) }
})

const projectCalls = vi.mocked(project)

/** What a render builds afresh each time: equal values, new objects. */
const tools = (): ToolSchema[] => [
  { name: 'weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
]
const narrow = () => definePolicy({ tokenizer: 'heuristic', maxInputTokens: 400, reserveOutputTokens: 50, systemPrompt: 'Be brief.' })
const wide = () => definePolicy({ tokenizer: 'heuristic', maxInputTokens: 4000, reserveOutputTokens: 50, systemPrompt: 'Be brief.' })

function message(turn: number): EntryInput {
  return { kind: 'message', payload: { role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn}: ${'words '.repeat(turn % 7)}` } }
}

describe('cachedProjection over a live thread', () => {
  beforeEach(() => {
    projectCalls.mockClear()
  })

  it('projects each commit once per (policy, budget, options), however many readers rebuild their inputs', async () => {
    const counter = await createTokenCounter('heuristic')
    const stores = createMemoryBackedStores()
    const { id } = await stores.threads.create({ title: 'cache' })
    const live = new LiveThread(stores.threads, id)
    // Three readers on every commit, as three components would be: two with the narrow budget, one wide.
    const read = (thread: Thread) => [
      cachedProjection(thread, narrow(), counter, { tools: tools(), pending: [{ role: 'user', content: 'draft' }] }),
      cachedProjection(thread, narrow(), counter, { tools: tools(), pending: [{ role: 'user', content: 'draft' }] }),
      cachedProjection(thread, wide(), counter, { tools: tools(), pending: [{ role: 'user', content: 'draft' }] }),
    ]
    const outcomes: ReturnType<typeof read>[] = []
    // Each new thread version (the record arriving changes the snapshot, not the thread).
    const stop = live.subscribe((snapshot, previous) => {
      if (snapshot.thread !== undefined && snapshot.thread !== previous.thread) outcomes.push(read(snapshot.thread))
    })
    await vi.waitFor(() => expect(live.getState().status).toBe('ready'))
    const commits = 12
    for (let turn = 0; turn < commits; turn++) {
      await stores.threads.append(id, message(turn))
      await vi.waitFor(() => expect(live.getState().version).toBe(turn + 1))
    }
    stop()
    // The first load (an empty thread) and each commit: two distinct budgets each, nothing more.
    expect(outcomes).toHaveLength(commits + 1)
    expect(projectCalls).toHaveBeenCalledTimes((commits + 1) * 2)
    for (const [first, second, third] of outcomes) {
      expect(second).toBe(first)
      expect(third).not.toBe(first)
      expect(first?.ok && third?.ok).toBe(true)
    }
    // Reading a version again later projects nothing new.
    read(live.getState().thread as Thread)
    expect(projectCalls).toHaveBeenCalledTimes((commits + 1) * 2)
  })

  it('projects again when what the model would see differs: other tools, pending text or counter', async () => {
    const counter = await createTokenCounter('heuristic')
    const stores = createMemoryBackedStores()
    const { id } = await stores.threads.create({ title: 'keys' })
    await stores.threads.append(id, message(0))
    const thread = await stores.threads.load(id)
    const base = cachedProjection(thread, narrow(), counter, { tools: tools() })
    expect(cachedProjection(thread, narrow(), counter, { tools: [...tools(), { name: 'search', parameters: {} }] })).not.toBe(base)
    expect(cachedProjection(thread, narrow(), counter, { tools: tools(), pending: [{ role: 'user', content: 'x' }] })).not.toBe(base)
    expect(
      cachedProjection(thread, narrow(), { ...counter, id: 'other-counter', count: counter.count.bind(counter) } as typeof counter, {
        tools: tools(),
      }),
    ).not.toBe(base)
    expect(cachedProjection(thread, narrow(), counter, { tools: tools() })).toBe(base)
    expect(projectCalls).toHaveBeenCalledTimes(4)
  })

  it('passes the recall searcher to the projection, one cache entry per searcher', async () => {
    const counter = await createTokenCounter('heuristic')
    const stores = createMemoryBackedStores()
    const { id } = await stores.threads.create({ title: 'recall' })
    await stores.threads.appendMany(id, [
      { kind: 'message', payload: { role: 'user', content: 'The adoption agency wants the signed paperwork.' } },
      { kind: 'message', payload: { role: 'assistant', content: 'Noted.' } },
      ...Array.from({ length: 12 }, (_, turn): EntryInput => ({
        kind: 'message',
        payload: { role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn}: ${'words '.repeat(40)}` },
      })),
      { kind: 'message', payload: { role: 'user', content: 'What did the adoption agency want?' } },
    ])
    const thread = await stores.threads.load(id)
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 400, reserveOutputTokens: 50, recall: {} })
    const index = createRecallIndex()
    const without = cachedProjection(thread, policy, counter)
    const withIndex = cachedProjection(thread, policy, counter, { recall: index })
    expect(without.ok && without.result.meta.recall?.skipped).toBe('no-index')
    expect(withIndex).not.toBe(without)
    expect(withIndex.ok && withIndex.result.meta.recall?.hits[0]?.terms).toEqual(expect.arrayContaining(['adoption', 'agency']))
    expect(cachedProjection(thread, policy, counter, { recall: index })).toBe(withIndex)
    expect(cachedProjection(thread, policy, counter, { recall: createRecallIndex() })).not.toBe(withIndex)
    expect(projectCalls).toHaveBeenCalledTimes(3)
  })
})
