import { createThread, createTokenCounter, definePolicy, project, type ContextPolicy, type Thread, type TokenCounter } from '@threadlens/core'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { turnEntries } from '../testing/turns'
import { turnDiff } from './turn-diff'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const SEED = 1314

/** A request whose question is not ASCII (its bytes and characters differ), with a long tool result when `tool`. */
function addTurn(thread: Thread, turn: number, words: number, tool: boolean): void {
  thread.appendMany(turnEntries(turn, { words, tool, questionWord: 'wörd', resultWords: words * 5 }))
}

const encoder = new TextEncoder()
function firstDifferentByte(a: string, b: string): number | undefined {
  const left = encoder.encode(a)
  const right = encoder.encode(b)
  for (let index = 0; index < Math.min(left.length, right.length); index++) if (left[index] !== right[index]) return index
  return left.length === right.length ? undefined : Math.min(left.length, right.length)
}

describe('turnDiff', () => {
  it(`between two consecutive calls: entered and left are exactly the seqs that came and went, deltas add up, and the break is the first differing byte (seed ${SEED})`, () => {
    let breaks = 0
    let kept = 0
    fc.assert(
      fc.property(
        fc.array(fc.record({ words: fc.integer({ min: 1, max: 40 }), tool: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 500, max: 6000 }),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        fc.constantFrom('transparent' as const, 'masked' as const),
        fc.boolean(),
        (turns, maxInputTokens, maxTurns, toolTrace, cacheFriendly) => {
          const thread = createThread({ id: 'diff', now: () => 1 })
          const policy = definePolicy({
            tokenizer: 'heuristic',
            maxInputTokens,
            reserveOutputTokens: 100,
            toolTrace,
            cacheFriendly,
            ...(maxTurns === undefined ? {} : { maxTurns }),
          })
          turns.slice(0, -1).forEach((turn, index) => addTurn(thread, index, turn.words, turn.tool))
          const before = project({ thread, policy, counter })
          const last = turns[turns.length - 1] as { words: number; tool: boolean }
          addTurn(thread, turns.length, last.words, last.tool)
          const after = project({ thread, policy, counter })
          const diff = turnDiff(before, after)
          const was = new Set(before.meta.includedSeqs)
          const now = new Set(after.meta.includedSeqs)
          expect(diff.changes.filter((item) => item.change === 'entered').map((item) => item.seq)).toEqual(
            after.meta.includedSeqs.filter((seq) => !was.has(seq)),
          )
          expect(diff.changes.filter((item) => item.change === 'left').map((item) => item.seq)).toEqual(
            before.meta.includedSeqs.filter((seq) => !now.has(seq)),
          )
          for (const item of diff.changes) {
            expect(item.delta).toBe(item.tokensAfter - item.tokensBefore)
            expect(item.reason.length).toBeGreaterThan(0)
            if (item.change === 'changed') expect(item.before).not.toBe(item.after)
          }
          expect(diff.tokenDelta).toBe(after.meta.tokens.total - before.meta.tokens.total)
          const a = JSON.stringify(before.messages)
          const b = JSON.stringify(after.messages)
          if (diff.prefix.byte === undefined) {
            kept++
            // The earlier request's messages open the later one unchanged.
            expect(b.startsWith(a.slice(0, -1))).toBe(true)
          } else {
            breaks++
            expect(diff.prefix.byte).toBe(firstDifferentByte(a, b))
          }
          for (const reuse of diff.breakpoints)
            if (reuse.breakpoint.at !== 'tools' && reuse.reusable) expect(reuse.breakpoint.at).toBeLessThan(diff.prefix.sharedMessages)
        },
      ),
      { seed: SEED, numRuns: 150 },
    )
    // Both outcomes occur, so neither branch above is vacuous.
    expect(breaks).toBeGreaterThan(5)
    expect(kept).toBeGreaterThan(5)
  })

  it('a policy that stops masking shows the results changing form, masked → whole, with their token growth', () => {
    const thread = createThread({ id: 'forms', now: () => 1 })
    for (let turn = 0; turn < 6; turn++) addTurn(thread, turn, 20, true)
    const policy = (toolTrace: ContextPolicy['toolTrace']) => definePolicy({ tokenizer: 'heuristic', maxInputTokens: 50_000, toolTrace })
    const masked = project({ thread, policy: policy('masked'), counter })
    const whole = project({ thread, policy: policy('transparent'), counter })
    const diff = turnDiff(masked, whole)
    expect(diff.changed).toBeGreaterThan(0)
    expect(diff.entered + diff.left).toBe(0)
    for (const item of diff.changes) {
      expect(item).toMatchObject({ change: 'changed', before: 'masked', after: 'whole', reason: 'masked → sent whole' })
      expect(item.delta).toBeGreaterThan(0)
    }
    expect(diff.prefix.byte).toBeDefined()
  })

  it('says why an entry left (its fate) and why one entered (new, or its fate before)', () => {
    const thread = createThread({ id: 'reasons', now: () => 1 })
    for (let turn = 0; turn < 4; turn++) addTurn(thread, turn, 10, false)
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 50_000, maxTurns: 2 })
    const before = project({ thread, policy, counter })
    addTurn(thread, 4, 10, false)
    const after = project({ thread, policy, counter })
    const diff = turnDiff(before, after)
    expect(diff.changes.find((item) => item.change === 'left')?.reason).toBe('window: outside maxTurns / maxMessages')
    expect(diff.changes.find((item) => item.change === 'entered')?.reason).toBe('was not in the thread yet')
    const wider = turnDiff(
      before,
      project({ thread, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 50_000, maxTurns: 4 }), counter }),
    )
    expect(wider.changes.find((item) => item.seq === 2)?.reason).toBe('was window: outside maxTurns / maxMessages')
    // In plain words beside the rule.
    expect(diff.changes.find((item) => item.change === 'left')?.words).toBe('they are older than the turns the policy keeps')
    expect(wider.changes.find((item) => item.seq === 2)?.words).toBe('was left out: they are older than the turns the policy keeps')
  })
})
