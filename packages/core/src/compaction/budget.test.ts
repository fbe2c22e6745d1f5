import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { BudgetOverflowError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { actionsArbitrary, buildThread, pendingArbitrary, policyOptionsArbitrary, sampleTools } from '../testing/random-thread'
import { customTokenCounter } from '../tokens/token-counter'
import { assertFits, ContextTokenBudget, decideCompaction } from './budget'

const counter = customTokenCounter('chars', (text) => text.length, true)

function threadOf(userTexts: readonly string[]) {
  const thread = createThread()
  for (const content of userTexts) thread.append({ kind: 'message', payload: { role: 'user', content } })
  return thread
}

describe('ContextTokenBudget', () => {
  it('subtracts reserved output and system from the window', () => {
    const budget = new ContextTokenBudget({ contextWindow: 1000, used: 300, reservedOutput: 200, reservedSystem: 100, softThreshold: 500 })
    expect(budget.remaining()).toBe(400)
    expect(budget.overSoftThreshold()).toBe(false)
    expect(new ContextTokenBudget({ contextWindow: 100, used: 300, reservedOutput: 0, reservedSystem: 0, softThreshold: 50 }).remaining()).toBe(0)
  })

  it('is derived from a projection: system and tools reserved, the rest used', () => {
    const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100, systemPrompt: 'x'.repeat(47), summarizeAtRatio: 0.5 })
    const result = project({ thread: threadOf(['a'.repeat(97)]), policy, counter })
    const budget = ContextTokenBudget.of(result, policy)
    expect(budget.reservedSystem).toBe(3 + 50)
    expect(budget.used).toBe(100)
    expect(budget.remaining()).toBe(1000 - 100 - 100 - 53)
    expect(budget.softThreshold).toBe(Math.floor(0.5 * (900 - 53)))
  })
})

describe('decideCompaction', () => {
  const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100, summarizeAtRatio: 0.5 })

  it('does nothing while there is room', () => {
    expect(decideCompaction(project({ thread: threadOf(['short']), policy, counter }), policy)).toEqual({ action: 'none' })
  })

  it('compacts over the soft threshold, below the minimum headroom, after dropping history, and on overflow', () => {
    const half = project({ thread: threadOf(['a'.repeat(500)]), policy, counter })
    expect(decideCompaction(half, policy)).toEqual({ action: 'compact', reason: 'over-soft-threshold' })
    const small = project({ thread: threadOf(['a'.repeat(100)]), policy, counter })
    expect(decideCompaction(small, policy, { minHeadroom: 900 })).toEqual({ action: 'compact', reason: 'low-headroom' })
    const dropped = project({ thread: threadOf(['a'.repeat(450), 'b'.repeat(450), 'c'.repeat(10)]), policy, counter })
    expect(decideCompaction(dropped, policy)).toEqual({ action: 'compact', reason: 'history-dropped' })
    const overflow = project({ thread: threadOf(['a'.repeat(2000)]), policy, counter })
    expect(decideCompaction(overflow, policy)).toEqual({ action: 'compact', reason: 'overflow' })
  })
})

describe('one verdict: meta.needsSummary and decideCompaction', () => {
  // The panel shows meta.needsSummary; sessions compact on decideCompaction. They must never disagree.
  const SEED = 20261127
  it(`agree on 1,000 random threads, policies, pending messages and tools (seed ${SEED})`, () => {
    const heuristic = customTokenCounter('words', (text) => Math.ceil(text.length / 4), false)
    fc.assert(
      fc.property(
        actionsArbitrary,
        policyOptionsArbitrary,
        pendingArbitrary,
        fc.boolean(),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (actions, options, pending, withTools, ratio) => {
          const policy = definePolicy({ ...options, summarizeAtRatio: ratio })
          const result = project({ thread: buildThread(actions), policy, counter: heuristic, pending, ...(withTools ? { tools: sampleTools } : {}) })
          const decision = decideCompaction(result, policy)
          expect(decision.action === 'compact').toBe(result.meta.needsSummary)
          const budget = ContextTokenBudget.of(result, policy)
          // The budget's soft threshold counts everything sent; the verdict only what no summary covers yet.
          if (result.meta.needsSummaryReason === 'over-threshold') expect(budget.overSoftThreshold()).toBe(true)
        },
      ),
      { seed: SEED, numRuns: 1000 },
    )
  })

  it('counts only what a summary can shrink: a large system prompt and tool schemas do not trigger it alone', () => {
    const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100, systemPrompt: 'x'.repeat(600), summarizeAtRatio: 0.5 })
    // 600 of 900 tokens are the system prompt: over half the budget, but the conversation is tiny.
    const result = project({ thread: threadOf(['hello']), policy, counter })
    expect(result.meta.needsSummary).toBe(false)
    expect(decideCompaction(result, policy)).toEqual({ action: 'none' })
    // The conversation takes half of the ~297 tokens left: now both say so.
    const grown = project({ thread: threadOf(['a'.repeat(160)]), policy, counter })
    expect(grown.meta.needsSummaryReason).toBe('over-threshold')
    expect(decideCompaction(grown, policy)).toEqual({ action: 'compact', reason: 'over-soft-threshold' })
  })
})

describe('assertFits', () => {
  it('is the hard stop: a typed error with what was needed and what was allowed', () => {
    const policy = definePolicy({ maxInputTokens: 100, reserveOutputTokens: 10 })
    expect(() => assertFits(project({ thread: threadOf(['ok']), policy, counter }))).not.toThrow()
    const overflow = project({ thread: threadOf(['a'.repeat(500)]), policy, counter })
    expect(() => assertFits(overflow)).toThrow(BudgetOverflowError)
    try {
      assertFits(overflow)
    } catch (error) {
      expect(error).toMatchObject({ required: overflow.meta.tokens.total, budget: 90 })
      expect((error as Error).message).toContain('larger maxInputTokens')
    }
  })
})
