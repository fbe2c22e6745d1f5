import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { base64Utf8 } from './base64-utf8'

const SEED = 20261123

describe('base64Utf8', () => {
  it(`gives back any text from its base64, standard or URL-safe, padded or not, with line breaks (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), fc.boolean(), fc.nat(), (text, urlSafe, padded, breakAt) => {
        let encoded = Buffer.from(text, 'utf8').toString(urlSafe ? 'base64url' : 'base64')
        if (!padded) encoded = encoded.replace(/=+$/, '')
        const at = encoded.length === 0 ? 0 : breakAt % encoded.length
        expect(base64Utf8(`${encoded.slice(0, at)}\r\n${encoded.slice(at)}`)).toBe(text)
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('decodes malformed input without throwing: a lone last digit is dropped, bytes that are not UTF-8 become U+FFFD', () => {
    expect(base64Utf8('aGVsbG8hQ')).toBe('hello!')
    expect(base64Utf8('aG*k')).toBe('hi')
    // 0xC3 (a lead byte) then 0x28 ("("): not UTF-8.
    expect(base64Utf8(Buffer.from([0xc3, 0x28]).toString('base64'))).toBe('\ufffd(')
    expect(base64Utf8('')).toBe('')
  })
})
