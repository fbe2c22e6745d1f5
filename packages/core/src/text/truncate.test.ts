import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { truncateHead, truncateHeadTail, truncateTail } from './truncate'

const encoder = new TextEncoder()
const bytes = (text: string): number => encoder.encode(text).length
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (segment) => segment.segment)
const markerPattern = /\[… (\d+) lines? \((\d+) bytes\) truncated …\]/

const textArbitrary = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.array(fc.constantFrom('line', '東京', '👨‍👩‍👧‍👦', 'é', 'e\u0301', '🇳🇴', '', 'x'.repeat(40)), { maxLength: 60 }).map((parts) => parts.join('\n')),
)
const optionsArbitrary = fc.record({ maxLines: fc.integer({ min: 1, max: 20 }), maxBytes: fc.integer({ min: 1, max: 300 }) }, { requiredKeys: [] })

describe('truncation of tool output', () => {
  it('keeps content that fits untouched, and reports its size', () => {
    expect(truncateHead('a\nb', { maxLines: 2 })).toEqual({ content: 'a\nb', truncated: false, truncatedBy: undefined, totalLines: 2, totalBytes: 3 })
  })

  it('cuts by lines with a visible marker saying what was cut', () => {
    const log = Array.from({ length: 10 }, (_, line) => `line ${line}`).join('\n')
    expect(truncateHead(log, { maxLines: 3 }).content).toBe('line 0\nline 1\nline 2\n[… 7 lines (49 bytes) truncated …]')
    expect(truncateTail(log, { maxLines: 2 }).content).toBe('[… 8 lines (56 bytes) truncated …]\nline 8\nline 9')
    const both = truncateHeadTail(log, { maxLines: 4 })
    expect(both.content).toBe('line 0\nline 1\n[… 6 lines (43 bytes) truncated …]\nline 8\nline 9')
    expect(both.truncatedBy).toBe('lines')
  })

  it('cuts by bytes without splitting a code point or a grapheme', () => {
    const family = '👨‍👩‍👧‍👦' // one grapheme, 25 bytes
    expect(truncateHead(`${family}${family}`, { maxBytes: 30 }).content.startsWith(`${family}\n`)).toBe(true)
    expect(truncateHead('東京', { maxBytes: 4 })).toMatchObject({
      content: '東\n[… 0 lines (3 bytes) truncated …]',
      truncatedBy: 'bytes',
      totalBytes: 6,
    })
    expect(truncateTail('é🇳🇴', { maxBytes: 8 }).content).toBe('[… 0 lines (2 bytes) truncated …]\n🇳🇴')
  })

  it('for any text and limits: kept parts are whole graphemes of the original, within the limits, sizes reported', () => {
    fc.assert(
      fc.property(textArbitrary, optionsArbitrary, (text, options) => {
        for (const [mode, truncate] of [
          ['head', truncateHead],
          ['tail', truncateTail],
          ['both', truncateHeadTail],
        ] as const) {
          const result = truncate(text, options)
          expect(result.totalBytes).toBe(bytes(text))
          expect(result.totalLines).toBe(text.split('\n').length)
          if (!result.truncated) {
            expect(result.content).toBe(text)
            continue
          }
          const match = markerPattern.exec(result.content)
          expect(match).not.toBeNull()
          const [before, after] = [result.content.slice(0, match!.index), result.content.slice(match!.index + match![0].length)]
          const head = mode === 'tail' ? '' : before.slice(0, -1)
          const tail = mode === 'head' ? '' : after.slice(1)
          const all = graphemes(text)
          expect(graphemes(head)).toEqual(all.slice(0, graphemes(head).length))
          if (tail !== '') expect(graphemes(tail)).toEqual(all.slice(all.length - graphemes(tail).length))
          if (options.maxBytes !== undefined) expect(bytes(head) + bytes(tail)).toBeLessThanOrEqual(options.maxBytes)
          // A byte-only cut keeps at most the original lines; a line cut keeps at most maxLines.
          if (result.truncatedBy === 'lines' && options.maxLines !== undefined) {
            const keptLines = (head === '' ? 0 : head.split('\n').length) + (tail === '' ? 0 : tail.split('\n').length)
            expect(keptLines).toBeLessThanOrEqual(options.maxLines)
          }
          expect(Number(match![2])).toBe(bytes(text) - bytes(head) - bytes(tail))
        }
      }),
      { numRuns: 1000, seed: 20261122 },
    )
  })
})
