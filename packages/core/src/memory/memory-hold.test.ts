import { beforeAll, describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { changedTokens, chooseMemoryText, memoryWindowKey, visibleTurns, type HeldMemory } from './memory-hold'
import { projectHoldingMemory } from './project-holding-memory'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

function threadWithTurns(turns: number): Thread {
  const thread = createThread({ id: 'memory-hold' })
  for (let turn = 0; turn < turns; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn}` } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}` } })
  }
  return thread
}

const policy = definePolicy({ cacheFriendly: true, cache: { memoryHoldTurns: 3, memoryRefreshTokens: 20 } })
const held: HeldMemory = { text: 'Memory (rev 1)\n\n[world]\nturn: 1', turn: 1, windowKey: '-/-' }

describe('chooseMemoryText', () => {
  it('sends the held text again while it is younger than memoryHoldTurns and the change is small', () => {
    const choice = chooseMemoryText({ fresh: 'Memory (rev 2)\n\n[world]\nturn: 2', held, thread: threadWithTurns(3), policy, counter })
    expect(choice).toEqual({ text: held.text, held: true, reason: 'held', turn: 3 })
  })

  it('renders fresh once memoryHoldTurns turns have passed, after a reset, or after a large change', () => {
    const fresh = 'Memory (rev 2)\n\n[world]\nturn: 2'
    expect(chooseMemoryText({ fresh, held, thread: threadWithTurns(4), policy, counter }).reason).toBe('turns')
    const reset = threadWithTurns(3)
    reset.append({ kind: 'context_op', payload: { op: 'reset', reason: 'new topic' } })
    expect(visibleTurns(reset)).toBe(0)
    expect(chooseMemoryText({ fresh, held, thread: reset, policy, counter }).reason).toBe('turns')
    const large = `${held.text}\nnotes: ${'a long new note '.repeat(20)}`
    expect(changedTokens(held.text, large, counter)).toBeGreaterThan(20)
    expect(chooseMemoryText({ fresh: large, held, thread: threadWithTurns(2), policy, counter })).toMatchObject({
      text: large,
      held: false,
      reason: 'changed',
    })
  })

  it('never holds without cacheFriendly or with memoryHoldTurns 1, and has nothing to hold on the first call', () => {
    const fresh = 'Memory (rev 2)\n\n[world]\nturn: 2'
    const thread = threadWithTurns(2)
    expect(chooseMemoryText({ fresh, held, thread, policy: definePolicy({}), counter }).reason).toBe('no-hold')
    expect(
      chooseMemoryText({ fresh, held, thread, policy: definePolicy({ cacheFriendly: true, cache: { memoryHoldTurns: 1 } }), counter }).reason,
    ).toBe('no-hold')
    expect(chooseMemoryText({ fresh, held: undefined, thread, policy, counter })).toMatchObject({ text: fresh, held: false, reason: 'first' })
  })

  it('decides at the turn it is given: a send counts the message it appends', () => {
    const fresh = 'Memory (rev 2)\n\n[world]\nturn: 2'
    const thread = threadWithTurns(3)
    expect(chooseMemoryText({ fresh, held, thread, policy, counter }).reason).toBe('held')
    expect(chooseMemoryText({ fresh, held, thread, policy, counter, turn: visibleTurns(thread) + 1 })).toMatchObject({
      text: fresh,
      reason: 'turns',
      turn: 4,
    })
  })

  it('measures a change by what it adds or removes, not by the whole text', () => {
    expect(changedTokens('same', 'same', counter)).toBe(0)
    const base = 'x '.repeat(500)
    expect(changedTokens(`${base}turn: 1`, `${base}turn: 2`, counter)).toBeLessThanOrEqual(2)
    expect(changedTokens('abc', '', counter)).toBeGreaterThan(0)
  })
})

describe('projectHoldingMemory', () => {
  const fresh = 'Memory (rev 2)\n\n[world]\nturn: 2'
  const wide = definePolicy({
    cacheFriendly: true,
    cache: { memoryHoldTurns: 3, memoryRefreshTokens: 20 },
    maxInputTokens: 4000,
    reserveOutputTokens: 100,
  })

  it('sends the held text again while the window it was rendered under stands, and keeps the hold as it was', () => {
    const thread = threadWithTurns(3)
    const base = memoryWindowKey(projectHoldingMemory({ thread, policy: wide, counter, fresh, held: undefined }).projection.meta)
    const standing = { ...held, windowKey: base }
    const result = projectHoldingMemory({ thread, policy: wide, counter, fresh, held: standing })
    expect(result).toMatchObject({ memory: held.text, reason: 'held' })
    expect(result.hold).toBe(standing)
    expect(result.projection.messages[0]?.content).toBe(held.text)
  })

  it('renders fresh when the window moved (and holds that), or when the choice says so', () => {
    const thread = threadWithTurns(3)
    const moved = projectHoldingMemory({ thread, policy: wide, counter, fresh, held: { ...held, windowKey: '7/-' } })
    expect(moved).toMatchObject({
      memory: fresh,
      reason: 'window-moved',
      hold: { text: fresh, turn: 3, windowKey: memoryWindowKey(moved.projection.meta) },
    })
    expect(moved.projection.messages[0]?.content).toBe(fresh)
    const first = projectHoldingMemory({ thread, policy: wide, counter, fresh, held: undefined })
    expect(first).toMatchObject({ memory: fresh, reason: 'first', hold: { text: fresh, turn: 3 } })
    const none = projectHoldingMemory({ thread, policy: wide, counter, fresh: '', held: undefined })
    expect(none.projection.meta.memory).toBeUndefined()
  })
})
