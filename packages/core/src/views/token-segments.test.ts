import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTokenCounter } from '../tokens/token-counter'
import { tokenSegments } from './token-segments'

const SEED = 1315

describe('tokenSegments', () => {
  it(`splits text into pieces that join back to it, as many tokens as the counter counts (seed ${SEED})`, async () => {
    const counter = await createTokenCounter('cl100k_base')
    const samples = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.constantFrom('héllo wörld 東京 🎉 <|endoftext|>', '{"a": [1, 2, 3]}\n'),
      ),
      { seed: SEED, numRuns: 200 },
    )
    for (const text of samples) {
      const segments = await tokenSegments(text, 'cl100k_base')
      expect(segments.map((segment) => segment.text).join('')).toBe(text)
      expect(segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(counter.count(text))
      for (const segment of segments) expect(segment.tokens).toBeGreaterThan(0)
    }
  })

  it('gives one piece per token for plain ASCII', async () => {
    const segments = await tokenSegments('The quick brown fox', 'cl100k_base')
    expect(segments).toEqual([
      { text: 'The', tokens: 1 },
      { text: ' quick', tokens: 1 },
      { text: ' brown', tokens: 1 },
      { text: ' fox', tokens: 1 },
    ])
  })
})
