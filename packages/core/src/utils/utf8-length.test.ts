import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Length } from './utf8-length'

const SEED = 20261123

/** The UTF-8 rules spelled out: 1 to 3 bytes per UTF-16 unit, 4 per surrogate pair, 3 for a lone surrogate. */
function countedByHand(text: string): number {
  let bytes = 0
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && position + 1 < text.length && (text.charCodeAt(position + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      position++
    } else bytes += 3
  }
  return bytes
}

describe('utf8Length', () => {
  it('counts bytes per code point, lone surrogates as U+FFFD', () => {
    // Repeated on purpose: the same shape as the heuristic's examples in packages/core/src/tokens/token-counter.test.ts (another function's counts).
    expect(utf8Length('')).toBe(0)
    expect(utf8Length('a')).toBe(1)
    expect(utf8Length('é')).toBe(2)
    expect(utf8Length('€')).toBe(3)
    expect(utf8Length('😀')).toBe(4)
    expect(utf8Length('\ud83d')).toBe(3)
    expect(utf8Length('\ude00x')).toBe(4)
    expect(utf8Length('\ud83d\ud83d\ude00')).toBe(7)
  })

  it(`agrees with the rules on any UTF-16 text, lone surrogates included (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('\ud83d', '\ude00', 'a', 'é', '€'),
            fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
            fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
          ),
        }),
        (text) => {
          expect(utf8Length(text)).toBe(countedByHand(text))
        },
      ),
      { seed: SEED, numRuns: 500 },
    )
  })
})
