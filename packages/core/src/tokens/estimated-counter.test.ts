import fc from 'fast-check'
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base'
import { beforeAll, describe, expect, it } from 'vitest'
import { corpora } from '../../bench/tokens/corpora'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { presets } from '../policy/presets'
import { project } from '../project/project'
import { counterNow, counterReady } from './counter-source'
import { ESTIMATE_MARGIN, estimatedEncoding, estimatedTokenCounter, estimateTokens } from './estimated-counter'
import {
  createTokenCounter,
  customTokenCounter,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  type EncodingName,
  type TokenCounter,
} from './token-counter'

const plain = { disallowedSpecial: new Set<string>() }
const exactCount: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => o200kCount(text, plain),
  cl100k_base: (text) => cl100kCount(text, plain),
}

let texts: Record<string, readonly string[]> = {}
beforeAll(() => {
  // Public text threadlens did not write: conversations, recorded tool calls, READMEs, code, JSON, UI strings in ~40 languages.
  texts = corpora()
})

function exactRequestTokens(messages: readonly { readonly content: unknown }[], count: (text: string) => number): number {
  let total = REPLY_PRIMING_TOKENS
  for (const message of messages) {
    if (typeof message.content !== 'string') throw new Error('this property builds text-only threads')
    total += MESSAGE_OVERHEAD_TOKENS + count(message.content)
  }
  return total
}

describe('estimatedTokenCounter', () => {
  it('stands in for an encoding with no download: not exact, its own id, its encoding told', () => {
    const counter = estimatedTokenCounter('o200k_base')
    expect(counter.exact).toBe(false)
    expect(counter.id).toBe('o200k_base~estimate')
    expect(estimatedEncoding(counter)).toBe('o200k_base')
    expect(estimatedTokenCounter('o200k_base')).toBe(counter)
    expect(estimatedEncoding(customTokenCounter('words', (text) => text.split(' ').length, false))).toBeUndefined()
    expect(counter.count('')).toBe(0)
    expect(counter.count('hello')).toBe(Math.ceil(estimateTokens('hello') * ESTIMATE_MARGIN.o200k_base))
  })

  it('uses the exact count the store saved for its encoding instead of estimating', () => {
    const thread = createThread()
    const entry = thread.append({
      kind: 'message',
      payload: { role: 'user', content: 'a long message '.repeat(20) },
      meta: { tokens: { o200k_base: 7 } },
    })
    expect(estimatedTokenCounter('o200k_base').countEntry(entry)).toBe(7)
    expect(estimatedTokenCounter('cl100k_base').countEntry(entry)).toBeGreaterThan(7)
  })

  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`never counts a projection below ${encoding}'s exact count: random stretches of public text under random budgets`, () => {
      const counter = estimatedTokenCounter(encoding)
      const names = Object.keys(texts)
      expect(names.length).toBeGreaterThanOrEqual(6)
      let projected = 0
      fc.assert(
        fc.property(
          fc.constantFrom(...names),
          fc.nat(),
          fc.integer({ min: 2, max: 300 }),
          fc.integer({ min: 2000, max: 32_000 }),
          fc.constantFrom('define', 'shortContext', 'longContext'),
          (name, startSeed, length, budget, kind) => {
            const corpus = texts[name] as readonly string[]
            const start = startSeed % corpus.length
            const thread = createThread()
            corpus.slice(start, start + length).forEach((content, index) => {
              thread.append({ kind: 'message', payload: { role: index % 2 === 0 ? 'user' : 'assistant', content } })
            })
            const sizes = { maxInputTokens: budget, reserveOutputTokens: 0 }
            const policy = kind === 'define' ? definePolicy(sizes) : presets[kind](sizes)
            const result = project({ thread, policy, counter })
            expect(result.meta.tokens.estimated).toBe(true)
            if (result.meta.overflow) return
            projected++
            expect(exactRequestTokens(result.messages, exactCount[encoding])).toBeLessThanOrEqual(budget)
          },
        ),
        { numRuns: 300, seed: 20261129 },
      )
      expect(projected).toBeGreaterThan(200)
    })
  }
})

describe('counterNow / counterReady', () => {
  it('counts with the estimate while a counter promise is pending, and with the counter once it resolves', async () => {
    let resolve: (counter: TokenCounter) => void = () => undefined
    const pending = new Promise<TokenCounter>((done) => {
      resolve = done
    })
    expect(counterNow(pending)).toBe(estimatedTokenCounter('o200k_base'))
    expect(counterNow(pending, 'cl100k_base')).toBe(estimatedTokenCounter('cl100k_base'))
    const words = customTokenCounter('words', (text) => text.split(' ').length, false)
    resolve(words)
    expect(await counterReady(pending)).toBe(words)
    expect(counterNow(pending)).toBe(words)
    expect(counterNow(words)).toBe(words)
  })

  it('knows which encoding a pending createTokenCounter promise loads', async () => {
    const loading = createTokenCounter('cl100k_base')
    const now = counterNow(loading)
    // Either still loading (the cl100k estimate) or already loaded by an earlier test (the exact counter).
    expect(now.id === 'cl100k_base~estimate' || now.id === 'cl100k_base').toBe(true)
    const exact = await counterReady(loading)
    expect(exact.id).toBe('cl100k_base')
    expect(counterNow(loading)).toBe(exact)
  })

  it('keeps the estimate when the counter fails to load, and reports the failure through counterReady', async () => {
    const failed = Promise.reject(new Error('chunk failed to load'))
    expect(counterNow(failed)).toBe(estimatedTokenCounter('o200k_base'))
    await expect(counterReady(failed)).rejects.toThrow('chunk failed to load')
    expect(counterNow(failed)).toBe(estimatedTokenCounter('o200k_base'))
  })
})
