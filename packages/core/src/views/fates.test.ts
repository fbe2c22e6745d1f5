import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { createTokenCounter } from '../tokens/token-counter'
import { describeFate, entryFates, sameFate, type EntryFate } from './fates'
import { project } from '../project/project'

describe('entryFates', () => {
  it('gives every entry exactly the fate meta says, with the rule', async () => {
    const thread = createThread({ id: 'fates', now: () => 1 })
    for (let turn = 0; turn < 6; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'word '.repeat(50)}` } })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${'word '.repeat(50)}` } })
    }
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 3, content: 'early turns' } }) // 12
    thread.append({ kind: 'context_op', payload: { op: 'pin', target: 5, reason: 'keep' } }) // 13
    thread.append({ kind: 'tool_call', payload: { name: 'lookup', arguments: {} }, refs: { callId: 'c', toolCallId: 't' } }) // 14
    thread.append({ kind: 'message', payload: { role: 'user', content: 'latest' } }) // 15
    const counter = await createTokenCounter('heuristic')
    const result = project({ thread, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 600, reserveOutputTokens: 100 }), counter })
    const fates = entryFates(result.meta)
    expect(entryFates(result.meta)).toBe(fates)
    const included = new Set(result.meta.includedSeqs)
    for (const entry of thread.entries) {
      const fate = fates.fateOf(entry.seq)
      if (entry.seq === 12) expect(fate.state).toBe('summary')
      else if (included.has(entry.seq)) expect(fate.state).toBe('included')
      else if (entry.seq <= 3) expect(fate).toEqual({ state: 'summarized', summarySeq: 12 })
      else expect(fate.state).toBe('dropped')
    }
    expect(fates.fateOf(13)).toEqual({ state: 'dropped', reason: 'applied' })
    expect(fates.pinned.has(5)).toBe(true)
    expect(fates.unresolved.has(14)).toBe(true)
    expect(describeFate(fates.fateOf(13)).rule).toContain('never sent')
    expect(describeFate(fates.fateOf(1)).label).toBe('summarized (#12)')
    expect(describeFate(fates.fateOf(4)).text).toMatch(/^not sent: |^in context/)
    expect(fates.fateOf(16)).toEqual({ state: 'unprojected' })
    expect(describeFate(fates.fateOf(16)).text).toBe('new')
    const budgetDropped = thread.entries
      .map((entry) => fates.fateOf(entry.seq))
      .filter((fate) => fate.state === 'dropped' && fate.reason === 'budget')
    expect(budgetDropped.length).toBeGreaterThan(0)
  })
})

const SEED = 1313

describe('sameFate', () => {
  const fate: fc.Arbitrary<EntryFate> = fc.oneof(
    fc.record({
      state: fc.constant('included' as const),
      reduced: fc.constantFrom(undefined, 'masked' as const, 'deduped' as const, 'pruned' as const),
    }),
    fc.record({ state: fc.constant('summary' as const), covers: fc.tuple(fc.nat(5), fc.nat(5)) }),
    fc.record({ state: fc.constant('summarized' as const), summarySeq: fc.nat(5) }),
    fc.record({ state: fc.constant('dropped' as const), reason: fc.constantFrom('budget' as const, 'window' as const, 'kind' as const) }),
    fc.constant({ state: 'unprojected' as const }),
  )
  it(`is true exactly when two fates say the same, whatever object holds them (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fate, fate, (a, b) => {
        expect(sameFate(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b))
        expect(sameFate(a, structuredClone(a))).toBe(true)
        expect(sameFate(a, b)).toBe(sameFate(b, a))
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
})
