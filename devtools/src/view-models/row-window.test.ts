import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { endOffset, rowWindow } from './row-window'

const SEED = 1313

describe('rowWindow', () => {
  it(`holds every row that intersects the viewport, within the overscan and the list (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: -500, max: 600_000 }),
        fc.integer({ min: 0, max: 1200 }),
        fc.integer({ min: 0, max: 10 }),
        (count, rowHeight, scrollTop, viewportHeight, overscan) => {
          const { from, to } = rowWindow(count, rowHeight, scrollTop, viewportHeight, overscan)
          expect(0 <= from && from <= to && to <= count).toBe(true)
          if (count === 0) {
            expect(to).toBe(0)
            return
          }
          // Where the browser puts the viewport: clamped to the list.
          const top = Math.min(Math.max(0, scrollTop), endOffset(count, rowHeight, viewportHeight))
          for (let row = Math.floor(top / rowHeight); row * rowHeight < top + viewportHeight && row < count; row++) {
            expect(row >= from && row < to, `row ${row} in view`).toBe(true)
          }
          // Never more than the rows in view plus the overscan on each side (and one row for an empty viewport).
          expect(to - from).toBeLessThanOrEqual(Math.ceil(viewportHeight / rowHeight) + 1 + 2 * overscan)
        },
      ),
      { seed: SEED, numRuns: 500 },
    )
  })

  it('at the end offset shows the last row at the bottom', () => {
    const height = endOffset(10_000, 26, 400)
    expect(height).toBe(10_000 * 26 - 400)
    expect(rowWindow(10_000, 26, height, 400, 8)).toEqual({ from: Math.floor(height / 26) - 8, to: 10_000 })
    expect(endOffset(3, 26, 400)).toBe(0)
  })
})
