import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import type { JsonObject } from '../entries/entry'
import type { Memory, Task } from './memory'
import { createMemory, createSpace, mapPut, tasksAdd, updateSpace } from './memory-operations'
import { requestMemoryText } from './request-memory'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const memoryArbitrary = fc
  .record({
    world: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string({ maxLength: 80 }), fc.integer())), { maxLength: 6 }),
    tasks: fc.array(fc.string({ minLength: 1, maxLength: 60 }), { maxLength: 4 }),
    notes: fc.array(fc.string({ maxLength: 200 }), { maxLength: 3 }),
  })
  .map(({ world, tasks, notes }): Memory => {
    let memory = createMemory('agent', 1)
    memory = updateSpace(memory, 'world', (data: JsonObject) => world.reduce<JsonObject>((map, [key, value]) => mapPut(map, key, value), data), {
      now: 2,
    })
    memory = updateSpace(
      memory,
      'tasks',
      (data: readonly Task[]) =>
        tasks.reduce<readonly Task[]>((list, text, index) => tasksAdd(list, { id: `t${index}`, text, status: 'open' }), data),
      { now: 3 },
    )
    memory = createSpace(memory, 'notes', 'list', { now: 4 })
    return updateSpace(memory, 'notes', () => notes, { now: 5 })
  })

describe('requestMemoryText', () => {
  it('takes text as it is and has nothing for no memory', () => {
    const policy = definePolicy({})
    expect(requestMemoryText('Memory: as given', policy, counter)).toBe('Memory: as given')
    expect(requestMemoryText(undefined, policy, counter)).toBe('')
  })

  const SEED = 20261127
  it(`is exactly what project() sends for a Memory: the same request from the memory or from its text (300 cases, seed ${SEED})`, () => {
    const thread = createThread({ id: 'request-memory', now: () => 1 })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'What do you know about the trip?' } })
    fc.assert(
      fc.property(
        memoryArbitrary,
        fc.subarray(['tasks', 'world', 'notes', 'missing']),
        fc.integer({ min: 10, max: 400 }),
        fc.integer({ min: 120, max: 2000 }),
        (memory, spaces, memoryMaxTokens, maxInputTokens) => {
          const policy = definePolicy({ tokenizer: 'heuristic', memorySpaces: spaces, memoryMaxTokens, maxInputTokens, reserveOutputTokens: 50 })
          const text = requestMemoryText(memory, policy, counter)
          const fromMemory = project({ thread, policy, counter, memory })
          const fromText = project({ thread, policy, counter, ...(text === '' ? {} : { memory: text }) })
          expect(fromText.messages).toEqual(fromMemory.messages)
          expect(fromText.meta.tokens).toEqual(fromMemory.meta.tokens)
          // When the segment fits, it is this text.
          const index = fromMemory.meta.messages.findIndex((info) => info.segment === 'memory')
          if (index !== -1) expect(fromMemory.messages[index]?.content).toBe(text)
          else expect(text === '' || fromMemory.meta.memory?.dropped === true).toBe(true)
        },
      ),
      { numRuns: 300, seed: SEED },
    )
  })
})
