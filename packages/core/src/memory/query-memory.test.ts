import { describe, expect, it } from 'vitest'
import type { Memory } from './memory'
import { createMemory, createSpace, mapPut, tasksAdd, tasksComplete, updateSpace } from './memory-operations'
import { queryMemory } from './query-memory'

function sample(): Memory {
  let memory = createMemory('agent', 0)
  memory = updateSpace(
    memory,
    'tasks',
    (tasks: never) =>
      tasksAdd(tasksAdd(tasks, { id: 't1', text: 'Book the ferry to Bergen', status: 'open' }), {
        id: 't2',
        text: 'Find a hotel in Oslo',
        status: 'open',
      }),
    { now: 0 },
  )
  memory = updateSpace(memory, 'tasks', (tasks: never) => tasksComplete(tasks, 't2'), { now: 0 })
  memory = updateSpace(memory, 'world', (data: never) => mapPut(mapPut(data, 'destination', 'Oslo'), 'pet', { name: 'Oliver', kind: 'cat' }), {
    now: 0,
  })
  memory = createSpace(memory, 'notes', 'list', { now: 0 })
  memory = updateSpace(memory, 'notes', () => ['The user paints landscapes', 'Allergic to peanuts\nand shellfish', 42], { now: 0 })
  return memory
}

describe('queryMemory', () => {
  it('ranks tasks, map entries and list items by their words, with the terms that matched', () => {
    const memory = sample()
    const [best, ...rest] = queryMemory(memory, 'What is the name of my cat?')
    expect(best).toEqual({
      space: 'world',
      key: 'pet',
      text: 'pet: {"name":"Oliver","kind":"cat"}',
      score: expect.any(Number),
      terms: ['cat', 'name'],
    })
    expect(rest).toEqual([])
    expect(queryMemory(memory, 'ferry booking')[0]).toMatchObject({
      space: 'tasks',
      index: 0,
      text: '[ ] t1: Book the ferry to Bergen',
      terms: ['book', 'ferry'],
    })
    // A map entry is found by its key too; a task by its text, done or not.
    expect(queryMemory(memory, 'destination').map((match) => match.key)).toEqual(['destination'])
    expect(queryMemory(memory, 'hotel')[0]).toMatchObject({ space: 'tasks', index: 1, text: '[x] t2: Find a hotel in Oslo' })
  })

  it('searches a string as text (not JSON-escaped), folds endings and finds longer words by their start', () => {
    const memory = sample()
    expect(queryMemory(memory, 'shellfish allergy?')[0]).toMatchObject({ space: 'notes', index: 1, terms: ['shellfish'] })
    expect(queryMemory(memory, 'painting')[0]).toMatchObject({ space: 'notes', index: 0, terms: ['paint'] })
    expect(queryMemory(memory, 'pea')).toEqual([]) // a prefix needs 4 characters at least
    expect(queryMemory(memory, 'lands')[0]).toMatchObject({ space: 'notes', index: 0, terms: ['landscape'] })
    expect(queryMemory(memory, '42')[0]).toMatchObject({ space: 'notes', index: 2, text: '42' })
  })

  it('ranks the item with the rarer and more frequent words first, and is deterministic', () => {
    const memory = sample()
    const oslo = queryMemory(memory, 'Oslo hotel')
    expect(oslo.map((match) => match.key ?? match.index)).toEqual([1, 'destination'])
    expect(oslo[0]?.score).toBeGreaterThan(oslo[1]?.score as number)
    expect(queryMemory(memory, 'Oslo hotel')).toEqual(oslo)
    // Equal scores keep the order of spaces and items.
    let twins = createMemory('twins', 0)
    twins = updateSpace(twins, 'world', (data: never) => mapPut(mapPut(data, 'b', 'ferry'), 'a', 'ferry'), { now: 0 })
    expect(queryMemory(twins, 'ferry').map((match) => match.key)).toEqual(['b', 'a'])
  })

  it('searches only the spaces asked for, in their order, and at most topK', () => {
    const memory = sample()
    expect(queryMemory(memory, 'Oslo', { spaces: ['world'] }).map((match) => match.space)).toEqual(['world'])
    expect(queryMemory(memory, 'Oslo', { spaces: ['missing', 'constructor', '__proto__'] })).toEqual([])
    expect(queryMemory(memory, 'Oslo ferry cat shellfish', { topK: 2 })).toHaveLength(2)
    expect(queryMemory(memory, 'Oslo', { topK: 0 })).toEqual([])
  })

  it('finds nothing for a query with no searchable words, or in an empty memory', () => {
    expect(queryMemory(sample(), '')).toEqual([])
    expect(queryMemory(sample(), 'what is it?')).toEqual([])
    expect(queryMemory(createMemory('empty', 0), 'Oslo')).toEqual([])
  })

  it('is bounded on huge items and queries', () => {
    let memory = createMemory('big', 0)
    memory = updateSpace(memory, 'world', (data: never) => mapPut(data, 'log', `${'word '.repeat(100_000)}needle`), { now: 0 })
    expect(queryMemory(memory, 'word')).toHaveLength(1)
    expect(queryMemory(memory, 'needle')).toEqual([]) // past the searched start of the item
    expect(queryMemory(memory, 'word '.repeat(5_000))).toHaveLength(1)
  })
})
