import { createThread, createTokenCounter, definePolicy, project, type Entry, type TokenCounter } from '@threadlens/core'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { entryFates } from '@threadlens/core/views'
import { leftOut, rangeText } from './left-out'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const SEED = 1313

function buildThread(turns: number, summaryTo: number | undefined, words: number) {
  const thread = createThread({ id: 'left-out', now: () => 1 })
  for (let turn = 0; turn < turns; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'word '.repeat(words)}` }, refs: { requestId: `r${turn}` } })
    if (turn % 2 === 0) {
      thread.append({ kind: 'tool_call', payload: { name: 'lookup', arguments: { turn } }, refs: { requestId: `r${turn}`, callId: `c${turn}`, toolCallId: `t${turn}` } })
      thread.append({ kind: 'tool_result', payload: { name: 'lookup', result: 'row '.repeat(words * 4) }, refs: { requestId: `r${turn}`, toolCallId: `t${turn}` } })
    }
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${'word '.repeat(words)}` }, refs: { requestId: `r${turn}` } })
    if (summaryTo !== undefined && turn === Math.floor(turns / 2)) thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: Math.min(summaryTo, thread.entries.length - 1), content: 'what happened' } })
  }
  return thread
}

describe('leftOut', () => {
  it(`accounts for every entry not sent as written exactly once, with the reason its fate gives (seed ${SEED})`, () => {
    const reasonsSeen = new Set<string>()
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 600, max: 8000 }),
        fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
        fc.constantFrom('transparent' as const, 'masked' as const, 'boundary' as const),
        (turns, summaryTo, words, maxInputTokens, maxTurns, toolTrace) => {
          const thread = buildThread(turns, summaryTo, words)
          const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens, reserveOutputTokens: 200, toolTrace, ...(maxTurns === undefined ? {} : { maxTurns }) })
          const { meta } = project({ thread, policy, counter })
          const groups = leftOut(meta, { entryAt: (seq) => thread.entries[seq], counter })
          const fates = entryFates(meta)
          for (const group of groups) reasonsSeen.add(group.reason)
          const seen = new Map<number, string>()
          for (const group of groups) {
            let count = 0
            let tokens = 0
            for (const range of group.ranges) {
              for (let seq = range.fromSeq; seq <= range.toSeq; seq++) {
                expect(seen.has(seq)).toBe(false)
                seen.set(seq, group.reason)
                count++
                tokens += counter.countEntry(thread.entries[seq] as Entry)
                const fate = fates.fateOf(seq)
                if (group.reason === 'summarized') expect(fate.state).toBe('summarized')
                else if (group.sent === 'shortened') expect(fate).toEqual({ state: 'included', reduced: group.reason })
                else expect(fate).toEqual({ state: 'dropped', reason: group.reason })
              }
            }
            expect(group.count).toBe(count)
            expect(group.tokens).toBe(tokens)
          }
          // And every entry outside the groups is sent as written.
          for (const entry of thread.entries) {
            if (seen.has(entry.seq)) continue
            const fate = fates.fateOf(entry.seq)
            expect(fate.state === 'summary' || (fate.state === 'included' && fate.reduced === undefined)).toBe(true)
          }
        },
      ),
      { seed: SEED, numRuns: 150 },
    )
    // The random threads reach the interesting fates, so the property above is not vacuous.
    for (const reason of ['budget', 'window', 'summarized', 'masked', 'isolated']) expect(reasonsSeen).toContain(reason)
  })

  it('names the summary and says the 717 older entries fell to the budget', () => {
    const thread = buildThread(300, undefined, 4)
    const { meta } = project({ thread, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 2000, reserveOutputTokens: 200 }), counter })
    const [budget] = leftOut(meta)
    expect(budget?.reason).toBe('budget')
    expect(budget?.tokens).toBeUndefined()
    expect(budget?.ranges[0]?.fromSeq).toBe(0)
    expect(budget?.count).toBe(thread.entries.length - meta.includedSeqs.length)
    expect(rangeText({ fromSeq: 0, toSeq: 716 })).toBe('#0–#716')
    const summarized = buildThread(6, 3, 10)
    const withSummary = leftOut(project({ thread: summarized, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 20_000 }), counter }).meta)
    expect(withSummary.map((group) => group.label)).toContain('summarized by #12')
  })
})
