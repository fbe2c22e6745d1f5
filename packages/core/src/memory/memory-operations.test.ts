import { describe, expect, it } from 'vitest'
import { InvalidMemoryOperationError, RevisionConflictError } from '../errors/threadlens-error'
import { memoryReader } from './memory'
import { read } from '../validation/readers'
import { createMemory, createSpace, deleteSpace, getSpace, mapDelete, mapPut, tasksAdd, updateSpace, worldGet } from './memory-operations'

describe('memory operations (pure)', () => {
  it('never mutate their input and bump both revs', () => {
    const memory = Object.freeze(createMemory('agent', 1))
    const next = updateSpace(memory, 'world', (data: never) => mapPut(data, 'city', 'Oslo'), { now: 2 })
    expect(memory.spaces.world.data).toEqual({})
    expect(next).toMatchObject({ rev: 1, updatedAt: 2, spaces: { world: { rev: 1, data: { city: 'Oslo' } }, tasks: { rev: 0 } } })
    expect(worldGet(next, 'city')).toBe('Oslo')
    expect(worldGet(next, 'constructor')).toBeUndefined()
    expect(read(memoryReader, next)).toEqual({ ok: true, value: next })
  })

  it('give a re-created space a rev it never had before', () => {
    let memory = createSpace(createMemory('a', 0), 'notes', 'map', { now: 0 })
    const firstRev = getSpace(memory, 'notes')?.rev
    memory = deleteSpace(memory, 'notes', { now: 0 })
    memory = createSpace(memory, 'notes', 'map', { now: 0 })
    expect(getSpace(memory, 'notes')?.rev).toBeGreaterThan(firstRev as number)
    expect(() => updateSpace(memory, 'notes', (data) => data, { expectedRev: firstRev as number, now: 0 })).toThrow(RevisionConflictError)
  })

  it('refuse bad data, async updates and unknown spaces', () => {
    const memory = createMemory('a', 0)
    expect(() => updateSpace(memory, 'tasks', () => [{ id: 'x', text: 't', status: 'maybe' }], { now: 0 })).toThrow(InvalidMemoryOperationError)
    expect(() =>
      updateSpace(
        memory,
        'tasks',
        () => [
          { id: 'x', text: 't', status: 'open' },
          { id: 'x', text: 'u', status: 'open' },
        ],
        { now: 0 },
      ),
    ).toThrow(/appears twice/)
    expect(() => updateSpace(memory, 'world', () => Promise.resolve({}), { now: 0 })).toThrow(/synchronous/)
    expect(() => updateSpace(memory, 'world', () => JSON.parse('{"__proto__": {"polluted": true}}'), { now: 0 })).toThrow(InvalidMemoryOperationError)
    expect(() => updateSpace(memory, 'nope', (data) => data, { now: 0 })).toThrow(/no such space/)
    expect(() => tasksAdd([{ id: 'a', text: '', status: 'open' }], { id: 'a', text: '', status: 'open' })).toThrow(/already exists/)
    expect(mapDelete({ a: 1 }, 'b')).toEqual({ a: 1 })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('report the current space on a conflict', () => {
    const memory = updateSpace(createMemory('a', 0), 'world', () => ({ k: 1 }), { now: 0 })
    try {
      updateSpace(memory, 'world', () => ({ k: 2 }), { expectedRev: 0, now: 0 })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(RevisionConflictError)
      expect(error).toMatchObject({
        target: { kind: 'memory-space', memoryId: 'a', space: 'world' },
        expected: 0,
        actual: 1,
        current: { kind: 'map', data: { k: 1 }, rev: 1 },
      })
    }
  })
})
