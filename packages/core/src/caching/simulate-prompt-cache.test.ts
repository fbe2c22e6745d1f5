import { describe, expect, it } from 'vitest'
import { InvalidCacheSimulationError } from '../errors/threadlens-error'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { toOpenAIChat } from '../formats/openai-chat'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { customTokenCounter, heuristicCount } from '../tokens/token-counter'
import { anthropicCacheBlocks, openAICacheBlocks } from './cache-blocks'
import { compareCacheUsage } from './compare-cache-usage'
import { simulatePromptCache, type CacheBlock } from './simulate-prompt-cache'

const MINUTE = 60_000
const block = (id: string, tokens: number, breakpoint?: '5m' | '1h'): CacheBlock =>
  breakpoint === undefined ? { id, tokens } : { id, tokens, breakpoint }
const blocks = (count: number, tokens: number, prefix = 'b'): CacheBlock[] =>
  Array.from({ length: count }, (_, index) => block(`${prefix}${index}`, tokens))
const withBreakpointAtEnd = (list: CacheBlock[], ttl: '5m' | '1h' = '5m'): CacheBlock[] =>
  list.map((item, index) => (index === list.length - 1 ? { ...item, breakpoint: ttl } : item))

describe('simulatePromptCache: Anthropic (hand-worked from the prompt caching docs, Sonnet 4.5 at $3 / $15)', () => {
  it('writes a marked 5,000-token system prompt at 1.25×, reads it at 0.1× within 5 minutes, writes again after expiry', () => {
    const system = block('system: a long style guide', 5_000, '5m')
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [system, block('user: first question', 100)] },
        { at: 1 * MINUTE, blocks: [system, block('user: second question', 120)] },
        // 5 minutes after the last read (which refreshed the entry), plus one second: expired.
        { at: 6 * MINUTE + 1_000, blocks: [system, block('user: third question', 80)] },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(usages.map(({ readTokens, writeTokens, uncachedTokens }) => [readTokens, writeTokens, uncachedTokens])).toEqual([
      [0, 5_000, 100],
      [5_000, 0, 120],
      [0, 5_000, 80],
    ])
    // 5,000 × $3.75/M + 100 × $3/M; then 5,000 × $0.30/M + 120 × $3/M.
    expect(usages[0]?.cost).toBeCloseTo(0.01905, 10)
    expect(usages[1]?.cost).toBeCloseTo(0.00186, 10)
    expect(usages[1]?.costWithoutCache).toBeCloseTo((5_120 * 3) / 1e6, 10)
  })

  it('a 1-hour breakpoint costs 2× to write and survives a 30-minute gap', () => {
    const system = block('system', 2_000, '1h')
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [system, block('user a', 10)] },
        { at: 30 * MINUTE, blocks: [system, block('user b', 10)] },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(usages[0]?.cost).toBeCloseTo((2_000 * 6 + 10 * 3) / 1e6, 10)
    expect(usages[1]?.readTokens).toBe(2_000)
  })

  it('caches nothing below the model minimum (Haiku 4.5: 4,096 tokens), marked or not', () => {
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 3_000, '5m'), block('user', 10)] },
        { at: MINUTE, blocks: [block('system', 3_000, '5m'), block('user 2', 10)] },
      ],
      { provider: 'anthropic', model: 'claude-haiku-4-5' },
    )
    expect(usages.map((usage) => [usage.readTokens, usage.writeTokens])).toEqual([
      [0, 0],
      [0, 0],
    ])
  })

  it('caches nothing without a breakpoint', () => {
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: blocks(30, 100) },
        { at: MINUTE, blocks: blocks(31, 100) },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(usages[1]).toMatchObject({ readTokens: 0, writeTokens: 0, uncachedTokens: 3_100 })
  })

  it('a breakpoint reads an entry up to 20 blocks back, and misses one further back', () => {
    const first = withBreakpointAtEnd(blocks(30, 100))
    // 10 blocks appended: the new breakpoint at block 40 looks back to block 20 and finds block 30's entry.
    const near = withBreakpointAtEnd(blocks(40, 100))
    // 25 more blocks: block 65 looks back to block 45; the newest entry is at block 40.
    const far = withBreakpointAtEnd(blocks(65, 100))
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: first },
        { at: MINUTE, blocks: near },
        { at: 2 * MINUTE, blocks: far },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(usages.map((usage) => [usage.readTokens, usage.writeTokens])).toEqual([
      [0, 3_000],
      [3_000, 1_000],
      [0, 6_500],
    ])
    // A second breakpoint within 20 blocks of the old entry bridges the gap.
    const bridged = far.map((item, index) => (index === 44 ? { ...item, breakpoint: '5m' as const } : item))
    const withBridge = simulatePromptCache(
      [
        { at: 0, blocks: first },
        { at: MINUTE, blocks: near },
        { at: 2 * MINUTE, blocks: bridged },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(withBridge[2]).toMatchObject({ readTokens: 4_000, writeTokens: 2_500 })
  })

  it('the automatic mode puts one breakpoint on the last block', () => {
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: blocks(5, 400), automatic: '5m' },
        { at: MINUTE, blocks: blocks(6, 400), automatic: '5m' },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    expect(usages.map((usage) => [usage.readTokens, usage.writeTokens, usage.uncachedTokens])).toEqual([
      [0, 2_000, 0],
      [2_000, 400, 0],
    ])
  })

  it('rejects requests out of order, negative counts and a fifth breakpoint, saying which request', () => {
    const options = { provider: 'anthropic', model: 'claude-sonnet-4-5' } as const
    expect(() =>
      simulatePromptCache(
        [
          { at: 10, blocks: [] },
          { at: 5, blocks: [] },
        ],
        options,
      ),
    ).toThrow(/request 1: at 5 comes before/)
    expect(() => simulatePromptCache([{ at: 0, blocks: [block('x', -1)] }], options)).toThrow(InvalidCacheSimulationError)
    const five = blocks(5, 10).map((item) => ({ ...item, breakpoint: '5m' as const }))
    expect(() => simulatePromptCache([{ at: 0, blocks: five }], options)).toThrow(/5 cache breakpoints; Anthropic rejects more than 4/)
  })
})

describe('simulatePromptCache: OpenAI (hand-worked from the prompt caching guide, gpt-4o-mini at $0.15, cached $0.075)', () => {
  it('caches from 1,024 tokens on its own and serves hits in 128-token steps', () => {
    const system = block('system', 1_500)
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [system, block('user 1', 500)] },
        { at: MINUTE, blocks: [system, block('user 1', 500), block('assistant 1', 300), block('user 2', 50)] },
      ],
      { provider: 'openai', model: 'gpt-4o-mini' },
    )
    // The shared prefix is 2,000 tokens: 1,024 + 7 × 128 = 1,920 are served from cache.
    expect(usages[1]).toMatchObject({ inputTokens: 2_350, readTokens: 1_920, writeTokens: 0, uncachedTokens: 430 })
    expect(usages[1]?.cost).toBeCloseTo((430 * 0.15 + 1_920 * 0.075) / 1e6, 12)
  })

  it('caches nothing under 1,024 tokens, and forgets after the retention', () => {
    const short = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 600), block('user', 100)] },
        { at: MINUTE, blocks: [block('system', 600), block('user', 100), block('user 2', 100)] },
      ],
      { provider: 'openai', model: 'gpt-4o-mini' },
    )
    expect(short[1]?.readTokens).toBe(0)
    const expired = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 2_000)] },
        { at: 5 * MINUTE + 1, blocks: [block('system', 2_000), block('user', 10)] },
      ],
      { provider: 'openai', model: 'gpt-4o-mini' },
    )
    expect(expired[1]?.readTokens).toBe(0)
  })
})

describe('simulatePromptCache: OpenAI at breakpoints (GPT-5.6 Terra at $2, cached $0.20, writes $2.50)', () => {
  const marked = (id: string, tokens: number): CacheBlock => ({ id, tokens, breakpoint: '30m' })
  const options = { provider: 'openai', model: 'gpt-5.6-terra' } as const

  it('writes at the marked system prompt and the implicit latest-message breakpoint, then reads the previous request whole', () => {
    const system = marked('system', 5_000)
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [system, block('user 1', 100)] },
        { at: 10 * MINUTE, blocks: [system, block('user 1', 100), block('assistant 1', 50), block('user 2', 80)] },
      ],
      options,
    )
    // Request 1 writes both prefixes: 5,000 at the marker, 100 more at the implicit breakpoint.
    expect(usages[0]).toMatchObject({ inputTokens: 5_100, readTokens: 0, writeTokens: 5_100, uncachedTokens: 0 })
    expect(usages[0]?.cost).toBeCloseTo((5_100 * 2.5) / 1e6, 12)
    // Request 2 reads the 5,100-token entry whole (no 128-token steps) and writes the 130 new tokens.
    expect(usages[1]).toMatchObject({ readTokens: 5_100, writeTokens: 130, uncachedTokens: 0 })
    expect(usages[1]?.cost).toBeCloseTo((5_100 * 0.2 + 130 * 2.5) / 1e6, 12)
  })

  it('matches only where an earlier breakpoint wrote: a shared prefix that ends between entries reads the shorter entry', () => {
    const system = marked('system', 3_000)
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [system, block('long document', 4_000), block('question a', 20)] },
        // Same system and document, another question: the 7,000-token shared prefix has no entry of its own.
        { at: MINUTE, blocks: [system, block('long document', 4_000), block('question b', 20)] },
      ],
      options,
    )
    expect(usages[1]).toMatchObject({ readTokens: 3_000, writeTokens: 4_020, uncachedTokens: 0 })
    // The same two requests on a model that caches by prefix read 1,024 + 46 × 128 = 6,912 tokens.
    const prefix = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 3_000), block('long document', 4_000), block('question a', 20)] },
        { at: MINUTE, blocks: [block('system', 3_000), block('long document', 4_000), block('question b', 20)] },
      ],
      { provider: 'openai', model: 'gpt-5.1' },
    )
    expect(prefix[1]).toMatchObject({ readTokens: 6_912, writeTokens: 0 })
  })

  it('explicit mode writes only at markers; entries live 30 minutes; only the 50 newest are read', () => {
    const explicit = simulatePromptCache(
      [
        { at: 0, blocks: [marked('system', 2_000), block('user 1', 500)], openAIMode: 'explicit' },
        { at: MINUTE, blocks: [marked('system', 2_000), block('user 1', 500), block('user 2', 10)], openAIMode: 'explicit' },
      ],
      options,
    )
    expect(explicit.map(({ readTokens, writeTokens, uncachedTokens }) => [readTokens, writeTokens, uncachedTokens])).toEqual([
      [0, 2_000, 500],
      [2_000, 0, 510],
    ])
    const expired = simulatePromptCache(
      [
        { at: 0, blocks: [marked('system', 2_000), block('user', 10)] },
        { at: 29 * MINUTE, blocks: [marked('system', 2_000), block('user', 10)] },
        { at: 29 * MINUTE + 30 * MINUTE + 1, blocks: [marked('system', 2_000), block('user', 10)] },
      ],
      options,
    )
    expect(expired.map((usage) => usage.readTokens)).toEqual([0, 2_010, 0])
    // 51 requests with distinct 1,500-token prefixes: the first one's entries are pushed out of the newest 50.
    const distinct = Array.from({ length: 51 }, (_, index) => ({
      at: index,
      blocks: [marked(`doc ${index}`, 1_500)],
      openAIMode: 'explicit' as const,
    }))
    const evicted = simulatePromptCache([...distinct, { at: 100, blocks: [marked('doc 0', 1_500)], openAIMode: 'explicit' }], options)
    expect(evicted.at(-1)?.readTokens).toBe(0)
    const kept = simulatePromptCache([...distinct.slice(0, 50), { at: 100, blocks: [marked('doc 0', 1_500)], openAIMode: 'explicit' }], options)
    expect(kept.at(-1)?.readTokens).toBe(1_500)
  })

  it('rejects more than 4 cache writes in one request, and an OpenAI breakpoint in an Anthropic request', () => {
    const four = [marked('a', 10), marked('b', 10), marked('c', 10), marked('d', 10), block('tail', 10)]
    expect(() => simulatePromptCache([{ at: 0, blocks: four }], options)).toThrow(
      /5 cache breakpoints \(the implicit one on the latest message included\); OpenAI writes at most 4/,
    )
    expect(simulatePromptCache([{ at: 0, blocks: four, openAIMode: 'explicit' }], options)).toHaveLength(1)
    expect(() => simulatePromptCache([{ at: 0, blocks: [marked('a', 10)] }], { provider: 'anthropic', model: 'claude-sonnet-4-5' })).toThrow(
      InvalidCacheSimulationError,
    )
  })
})

describe('simulatePromptCache: Gemini implicit caching (Gemini 2.5 Flash at $0.30, cached $0.03, minimum 2,048)', () => {
  it('reads the longest recent prefix whole, from 2,048 tokens, with no write surcharge; nothing below the minimum', () => {
    const usages = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 3_000), block('user 1', 100)] },
        { at: MINUTE, blocks: [block('system', 3_000), block('user 1', 100), block('model 1', 200), block('user 2', 50)] },
        { at: 2 * MINUTE, blocks: [block('short system', 1_500), block('user', 100)] },
        { at: 3 * MINUTE, blocks: [block('short system', 1_500), block('user', 100), block('user 2', 10)] },
      ],
      { provider: 'gemini', model: 'gemini-2.5-flash' },
    )
    expect(usages.map(({ readTokens, writeTokens, uncachedTokens }) => [readTokens, writeTokens, uncachedTokens])).toEqual([
      [0, 0, 3_100],
      [3_100, 0, 250],
      [0, 0, 1_600],
      [0, 0, 1_610],
    ])
    expect(usages[1]?.cost).toBeCloseTo((3_100 * 0.03 + 250 * 0.3) / 1e6, 12)
    // Gemini 3 Pro's minimum is 4,096: the same 3,100-token prefix is never read.
    const pro = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 3_000), block('user 1', 100)] },
        { at: MINUTE, blocks: [block('system', 3_000), block('user 1', 100), block('user 2', 50)] },
      ],
      { provider: 'gemini', model: 'gemini-3-pro-preview' },
    )
    expect(pro[1]?.readTokens).toBe(0)
  })
})

describe('cache blocks from formatted requests', () => {
  it('a growing thread formatted for Anthropic reads the previous request and writes only what is new', () => {
    const counter = customTokenCounter('heuristic', heuristicCount, false)
    const policy = definePolicy({ systemPrompt: 'You are a careful travel planner. '.repeat(200) })
    const thread = createThread({ id: 'trip' })
    const requests = []
    for (let turn = 0; turn < 3; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `Question ${turn} about the route` } })
      requests.push({
        at: turn * 20_000,
        ...anthropicCacheBlocks(toAnthropicMessages(project({ thread, policy, counter })), (text) => counter.countCached(text)),
      })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `Answer ${turn}: take the coast road.` } })
    }
    const usages = simulatePromptCache(requests, { provider: 'anthropic', model: 'claude-sonnet-4-5' })
    expect(usages[0]?.readTokens).toBe(0)
    for (const usage of usages.slice(1)) {
      expect(usage.readTokens).toBeGreaterThan(1_024)
      expect(usage.writeTokens).toBeLessThan(40)
      expect(usage.uncachedTokens).toBe(0)
    }
  })

  it('an OpenAI request keyed by messages: the repeated prefix is read', () => {
    const counter = customTokenCounter('heuristic', heuristicCount, false)
    const policy = definePolicy({ systemPrompt: 'Answer in French. '.repeat(400) })
    const thread = createThread({ id: 'fr' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Bonjour' } })
    const first = openAICacheBlocks({ messages: toOpenAIChat(project({ thread, policy, counter })) }, (text) => counter.countCached(text))
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Bonjour !' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Ça va ?' } })
    const second = openAICacheBlocks({ messages: toOpenAIChat(project({ thread, policy, counter })) }, (text) => counter.countCached(text))
    const usages = simulatePromptCache(
      [
        { at: 0, ...first },
        { at: 30_000, ...second },
      ],
      { provider: 'openai', model: 'gpt-4.1' },
    )
    expect(usages[1]?.readTokens).toBeGreaterThanOrEqual(1_024)
    expect((usages[1]?.readTokens ?? 0) % 128).toBe(0)
  })
})

describe('compareCacheUsage', () => {
  it('flags a miss the simulator did not predict, and tolerates tokenizer noise', () => {
    const predicted = simulatePromptCache(
      [
        { at: 0, blocks: [block('system', 5_000, '5m'), block('u1', 100)] },
        { at: MINUTE, blocks: [block('system', 5_000, '5m'), block('u2', 100)] },
        { at: 2 * MINUTE, blocks: [block('system', 5_000, '5m'), block('u3', 100)] },
      ],
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    const comparison = compareCacheUsage(predicted, [
      { inputTokens: 5_120, cachedInputTokens: 0, cacheWriteInputTokens: 5_020 },
      { inputTokens: 5_130, cachedInputTokens: 0, cacheWriteInputTokens: 5_030 },
      { inputTokens: 5_110, cachedInputTokens: 5_040 },
    ])
    expect(comparison.map((entry) => entry.verdict)).toEqual(['as-predicted', 'unpredicted-miss', 'as-predicted'])
    expect(comparison[1]?.difference).toBe(-5_000)
    expect(compareCacheUsage(predicted, [undefined])[0]?.verdict).toBe('not-reported')
  })
})
