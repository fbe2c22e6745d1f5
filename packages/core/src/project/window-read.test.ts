import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Entry } from '../entries/entry'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { actionsArbitrary, buildThread } from '../testing/random-thread'
import { customTokenCounter } from '../tokens/token-counter'
import { project } from './project'
import { emptyThreadFacts, foldThreadFacts, WindowRead } from './window-read'

const SEED = 20261127
const counter = customTokenCounter('chars', (text) => text.length, true)

describe('thread facts', () => {
  it(`folded in any batches, agree with what the projector itself sees, on 1,000 random threads (seed ${SEED})`, () => {
    // A budget nothing exceeds: the projector then finds the summary checkpoint whenever one applies
    // and leaves it out as unneeded (everything it covers fits).
    const policy = definePolicy({ maxInputTokens: 50_000_000, reserveOutputTokens: 1 })
    fc.assert(
      fc.property(actionsArbitrary, fc.array(fc.nat(), { maxLength: 5 }), (actions, cuts) => {
        const thread = buildThread(actions)
        const { entries, index } = thread
        let facts = emptyThreadFacts
        const bounds = [...new Set(cuts.map((cut) => cut % (entries.length + 1)))].sort((a, b) => a - b)
        let from = 0
        for (const bound of [...bounds, entries.length]) {
          facts = foldThreadFacts(facts, entries.slice(from, bound))
          from = bound
        }
        expect(facts.resetSeq).toBe(index.resetSeq)
        expect(facts.lastUserSeq).toBe(index.userSeqs.at(-1) ?? -1)
        if (entries.length === 0) return
        const meta = project({ thread, policy, counter }).meta
        expect(facts.summary?.seq).toBe(meta.summary?.seq ?? meta.dropped.find((range) => range.reason === 'unneeded')?.fromSeq)
        expect(facts.pinnedSeqs).toEqual(meta.pinnedSeqs.filter((seq) => seq > facts.resetSeq))
      }),
      { seed: SEED, numRuns: 1000 },
    )
  })
})

describe('WindowRead', () => {
  it('is enough once what it counted exceeds the input budget, and not before', () => {
    const thread = createThread({ id: 't' })
    for (let seq = 0; seq < 10; seq++) thread.append({ kind: 'message', payload: { role: 'user', content: 'a'.repeat(90) } })
    const entry = (seq: number) => thread.entries[seq] as Entry
    const policy = definePolicy({ maxInputTokens: 200, reserveOutputTokens: 0 })
    const read = new WindowRead(policy, counter, emptyThreadFacts, 9)
    expect(read.floor).toBe(0)
    expect(read.needsMore).toBe(true)
    expect(read.add(entry(9))).toBe(false)
    expect(read.add(entry(8))).toBe(false)
    expect(read.add(entry(7))).toBe(true)
    expect(read.lowest).toBe(7)
    expect(read.needsMore).toBe(false)
  })

  it('holds one chunk beyond the budget for a cache-friendly window', () => {
    const plain = new WindowRead(definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 0 }), counter, emptyThreadFacts, 5)
    const chunked = new WindowRead(
      definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 0, cacheFriendly: true, cacheLowWaterRatio: 0.6 }),
      counter,
      emptyThreadFacts,
      5,
    )
    expect(plain.reach).toBe(1000)
    expect(chunked.reach).toBe(1400)
  })

  it('starts after the newest reset and always reaches the latest user message, pins and the summary in use', () => {
    const facts = { resetSeq: 3, lastUserSeq: 10, summary: { seq: 30, fromSeq: 4, toSeq: 12 }, pinnedSeqs: [2, 8] }
    const read = new WindowRead(definePolicy(), counter, facts, 40)
    expect(read.floor).toBe(4)
    expect(read.summary).toEqual(facts.summary)
    // A pin hidden by the reset (2) is not looked at; the summary's own range end and the pin are.
    expect(read.requiredFrom(35)).toBe(8)
    expect(new WindowRead(definePolicy({ includeKinds: ['message'] }), counter, facts, 40).summary).toBeNull()
  })
})
