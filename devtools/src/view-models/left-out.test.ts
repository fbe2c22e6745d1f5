import { createThread, createTokenCounter, definePolicy, project, type Entry, type TokenCounter } from '@threadlens/core'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { entryFates } from '@threadlens/core/views'
import { turnEntries } from '../testing/turns'
import { leftOut, reasonBadgeClass, leftOutHeading, leftOutTotals, rangeText, reasonOrder, type LeftOutGroup } from './left-out'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const SEED = 1313

/** The numbers a user reads in the heading: entries, tokens, and the split when there is one. */
function readHeading(heading: string) {
  const match =
    /^(?:Left out|Sent shortened|Left out or shortened): ([\d,]+) entr(?:y|ies)(?: \(([\d,]+) tokens as written\))?(?:: ([\d,]+) not sent, ([\d,]+) sent shortened)?$/.exec(
      heading,
    )
  if (match === null) throw new Error(`unexpected heading: ${heading}`)
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text.replaceAll(',', '')))
  return { count: number(match[1]), tokens: number(match[2]), absent: number(match[3]), shortened: number(match[4]) }
}

/** The heading says exactly what the listed groups add up to, whatever their reasons. */
function expectHeadingAgrees(groups: readonly LeftOutGroup[]) {
  const heading = leftOutHeading(groups)
  const count = groups.reduce((sum, group) => sum + group.count, 0)
  if (count === 0) {
    expect(heading).toBe('Nothing left out: every entry of the thread is sent as written.')
    return
  }
  const read = readHeading(heading)
  expect(read.count).toBe(count)
  expect(read.tokens).toBe(
    groups.some((group) => group.tokens === undefined) ? undefined : groups.reduce((sum, group) => sum + (group.tokens ?? 0), 0),
  )
  const absent = groups.filter((group) => group.sent === 'no').reduce((sum, group) => sum + group.count, 0)
  if (absent > 0 && absent < count) expect([read.absent, read.shortened]).toEqual([absent, count - absent])
  else expect([read.absent, read.shortened]).toEqual([undefined, undefined])
  expect(heading.startsWith(absent === count ? 'Left out:' : absent === 0 ? 'Sent shortened:' : 'Left out or shortened:')).toBe(true)
}

function buildThread(turns: number, summaryTo: number | undefined, words: number) {
  const thread = createThread({ id: 'left-out', now: () => 1 })
  for (let turn = 0; turn < turns; turn++) {
    thread.appendMany(turnEntries(turn, { words, tool: turn % 2 === 0 }))
    if (summaryTo !== undefined && turn === Math.floor(turns / 2))
      thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: Math.min(summaryTo, thread.entries.length - 1), content: 'what happened' } })
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
        fc.option(fc.integer({ min: 5, max: 200 }), { nil: undefined }),
        (turns, summaryTo, words, maxInputTokens, maxTurns, toolTrace, pruneOver) => {
          const thread = buildThread(turns, summaryTo, words)
          const policy = definePolicy({
            tokenizer: 'heuristic',
            maxInputTokens,
            reserveOutputTokens: 200,
            toolTrace,
            ...(maxTurns === undefined ? {} : { maxTurns }),
            ...(pruneOver === undefined ? {} : { pruneToolOutputsOverTokens: pruneOver }),
          })
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
          // The heading counts every group listed, entries and tokens, and so do the totals.
          expectHeadingAgrees(groups)
          expect(leftOutTotals(groups).all).toEqual({
            count: seen.size,
            tokens: [...seen.keys()].reduce((sum, seq) => sum + counter.countEntry(thread.entries[seq] as Entry), 0),
          })
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
    for (const reason of ['budget', 'window', 'summarized', 'masked', 'pruned', 'isolated']) expect(reasonsSeen).toContain(reason)
  })

  it(`heads the list with what every listed group adds up to, whatever the reasons (seed ${SEED})`, () => {
    const group = fc.record({
      reason: fc.constantFrom(...reasonOrder),
      count: fc.integer({ min: 1, max: 5_000 }),
      tokens: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
    })
    fc.assert(
      fc.property(fc.uniqueArray(group, { selector: (item) => item.reason, maxLength: reasonOrder.length }), (items) => {
        const groups: LeftOutGroup[] = items.map((item) => ({
          ...item,
          label: item.reason,
          rule: '',
          sent: item.reason === 'masked' || item.reason === 'pruned' || item.reason === 'deduped' ? 'shortened' : 'no',
          ranges: [{ fromSeq: 0, toSeq: item.count - 1 }],
        }))
        expectHeadingAgrees(groups)
      }),
      { seed: SEED, numRuns: 300 },
    )
    // Masked and pruned entries are counted in the heading, not only listed under it.
    const masked = leftOutHeading([
      { reason: 'budget', label: 'budget', rule: '', sent: 'no', ranges: [{ fromSeq: 0, toSeq: 716 }], count: 717, tokens: 40_000 },
      { reason: 'masked', label: 'masked', rule: '', sent: 'shortened', ranges: [{ fromSeq: 720, toSeq: 721 }], count: 2, tokens: 900 },
      { reason: 'pruned', label: 'pruned', rule: '', sent: 'shortened', ranges: [{ fromSeq: 725, toSeq: 725 }], count: 1, tokens: 2_400 },
    ])
    expect(masked).toBe('Left out or shortened: 720 entries (43,300 tokens as written): 717 not sent, 3 sent shortened')
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
    // Everything the summary covers fits: the entries are sent as they are, the summary is not needed.
    const roomy = leftOut(project({ thread: summarized, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 20_000 }), counter }).meta)
    expect(roomy.map((group) => group.label)).toEqual(['unneeded'])
    expect(reasonBadgeClass('unneeded')).toBe('')
    const tight = leftOut(
      project({
        thread: buildThread(6, 3, 200),
        policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 2_400, reserveOutputTokens: 200 }),
        counter,
      }).meta,
    )
    expect(tight.map((group) => group.label)).toContain('summarized by #12')
  })
})
