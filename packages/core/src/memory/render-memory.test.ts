import { beforeAll, describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter, MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { applyMemoryProjectors, summaryToWorld, toolResultToWorld } from './memory-projector'
import { createMemory, createSpace, mapPut, tasksAdd, tasksComplete, updateSpace } from './memory-operations'
import { renderMemory } from './render-memory'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

function tripMemory() {
  let memory = createMemory('agent', 1)
  memory = updateSpace(
    memory,
    'tasks',
    (tasks: never) =>
      tasksComplete(
        tasksAdd(tasksAdd(tasks, { id: 't1', text: 'Book the ferry', status: 'open' }), { id: 't2', text: 'Find a hotel', status: 'open' }),
        't2',
      ),
    { now: 2 },
  )
  memory = updateSpace(memory, 'world', (world: never) => mapPut(mapPut(world, 'destination', 'Oslo'), 'budget', 2000), { now: 3 })
  memory = createSpace(memory, 'notes', 'list', { now: 4 })
  memory = updateSpace(memory, 'notes', () => ['x'.repeat(4000)], { now: 5 })
  return memory
}

describe('renderMemory', () => {
  it('renders the chosen spaces in order, values as JSON, within the token cap, whole spaces only', () => {
    const memory = tripMemory()
    const rendered = renderMemory(memory, { spaces: ['world', 'tasks', 'notes', 'missing'], maxTokens: 200, counter })
    const { world, tasks } = memory.spaces
    expect(rendered.text).toBe(
      [
        `Memory (rev ${memory.rev}): what you know and intend now.`,
        `[world] (map, rev ${world.rev})\ndestination: "Oslo"\nbudget: 2000`,
        `[tasks] (list, rev ${tasks.rev})\n- [ ] t1: Book the ferry\n- [x] t2: Find a hotel`,
      ].join('\n\n'),
    )
    expect(rendered.spaces).toEqual(['world', 'tasks'])
    expect(rendered.omitted).toEqual(['notes', 'missing'])
    expect(MESSAGE_OVERHEAD_TOKENS + counter.count(rendered.text)).toBeLessThanOrEqual(200)
    expect(renderMemory(memory, { spaces: ['world', 'tasks', 'notes', 'missing'], maxTokens: 200, counter })).toBe(rendered)
  })

  it("goes into the projection's memory segment, counted in meta", () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Where am I going?' } })
    const policy = definePolicy({ memorySpaces: ['world', 'notes'], memoryMaxTokens: 100 })
    const memory = tripMemory()
    const result = project({ thread, policy, counter, memory })
    expect(result.messages[0]).toEqual({
      role: 'system',
      content: `Memory (rev ${memory.rev}): what you know and intend now.\n\n[world] (map, rev ${memory.spaces.world.rev})\ndestination: "Oslo"\nbudget: 2000`,
    })
    expect(result.meta.messages[0]).toMatchObject({ segment: 'memory', tokens: result.meta.tokens.memory })
    expect(result.meta.memory).toEqual({ rev: memory.rev, spaces: ['world'], omitted: ['notes'], dropped: false })
    expect(project({ thread, policy: definePolicy(), counter, memory: tripMemory() }).meta.tokens.memory).toBe(0)
  })
})

describe('memory projectors', () => {
  it('compile the thread into memory, and return the same memory when nothing changes', () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather in Oslo?' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { toolCallId: 'w' } })
    thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 3 } }, refs: { toolCallId: 'w' } })
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 2, content: 'Asked about Oslo weather: 3°C.' } })
    const projectors = [summaryToWorld(), toolResultToWorld('weather')]
    const memory = createMemory('agent', 1)
    const next = applyMemoryProjectors(thread, memory, projectors, 10)
    expect(next.spaces.world.data).toEqual({ summary: 'Asked about Oslo weather: 3°C.', weather: '{"celsius":3}' })
    expect(memory.spaces.world.data).toEqual({})
    expect(applyMemoryProjectors(thread, next, projectors, 11)).toBe(next)
  })
})
