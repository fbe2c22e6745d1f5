import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { squarify, type Box, type TreemapTile } from './treemap'

const SEED = 1323
const boxArbitrary = fc.record({
  x: fc.integer({ min: -50, max: 50 }),
  y: fc.integer({ min: -50, max: 50 }),
  width: fc.double({ min: 1, max: 2000, noNaN: true }),
  height: fc.double({ min: 1, max: 2000, noNaN: true }),
})
// Token counts: many small, a few huge, some zero (empty segments get no tile).
const valuesArbitrary = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 5000, max: 200_000 })),
  { minLength: 0, maxLength: 60 },
)

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

function layout(values: readonly number[], box: Box): TreemapTile<number>[] {
  return squarify(
    values.map((value, index) => ({ value, data: index })),
    box,
  )
}

describe('squarify', () => {
  it(`gives every positive value one tile, areas proportional to values (seed ${SEED})`, () => {
    fc.assert(
      fc.property(valuesArbitrary, boxArbitrary, (values, box) => {
        const tiles = layout(values, box)
        const positive = values.filter((value) => value > 0)
        expect(tiles.length).toBe(positive.length)
        const total = positive.reduce((sum, value) => sum + value, 0)
        const boxArea = box.width * box.height
        for (const tile of tiles) {
          expect(tile.value).toBe(values[tile.data])
          expect(tile.width).toBeGreaterThanOrEqual(0)
          expect(tile.height).toBeGreaterThanOrEqual(0)
          expect(Math.abs(tile.width * tile.height - (tile.value / total) * boxArea)).toBeLessThanOrEqual(boxArea * 1e-9 + 1e-9)
        }
      }),
      { seed: SEED, numRuns: 500 },
    )
  })

  it(`keeps every tile inside the box and no two tiles overlap (seed ${SEED})`, () => {
    fc.assert(
      fc.property(valuesArbitrary, boxArbitrary, (values, box) => {
        const tiles = layout(values, box)
        const epsilon = 1e-7 * Math.max(box.width, box.height)
        for (const tile of tiles) {
          expect(tile.x).toBeGreaterThanOrEqual(box.x - epsilon)
          expect(tile.y).toBeGreaterThanOrEqual(box.y - epsilon)
          expect(tile.x + tile.width).toBeLessThanOrEqual(box.x + box.width + epsilon)
          expect(tile.y + tile.height).toBeLessThanOrEqual(box.y + box.height + epsilon)
        }
        const boxArea = box.width * box.height
        for (let first = 0; first < tiles.length; first++) {
          for (let second = first + 1; second < tiles.length; second++) {
            expect(overlap(tiles[first] as Box, tiles[second] as Box)).toBeLessThanOrEqual(boxArea * 1e-9)
          }
        }
        // Together they fill the box exactly when anything is there.
        const covered = tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0)
        if (tiles.length > 0) expect(covered).toBeCloseTo(boxArea, 6)
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it(`is deterministic and leaves its input alone (seed ${SEED})`, () => {
    fc.assert(
      fc.property(valuesArbitrary, boxArbitrary, (values, box) => {
        const items = values.map((value, index) => ({ value, data: index }))
        const copy = JSON.stringify(items)
        expect(squarify(items, box)).toEqual(squarify(items, box))
        expect(JSON.stringify(items)).toBe(copy)
      }),
      { seed: SEED, numRuns: 100 },
    )
  })

  it('puts the largest consumer first and gives it its share: 2,400 of 2,882 history tokens', () => {
    const tiles = layout([120, 2400, 90, 272], { x: 0, y: 0, width: 100, height: 100 })
    expect(tiles[0]?.data).toBe(1)
    expect((tiles[0]?.width ?? 0) * (tiles[0]?.height ?? 0)).toBeCloseTo((2400 / 2882) * 10_000, 6)
  })

  it('draws nothing for an empty box or nothing to draw', () => {
    expect(layout([1, 2], { x: 0, y: 0, width: 0, height: 10 })).toEqual([])
    expect(layout([0, 0], { x: 0, y: 0, width: 10, height: 10 })).toEqual([])
    expect(layout([Number.NaN, Number.POSITIVE_INFINITY, -3], { x: 0, y: 0, width: 10, height: 10 })).toEqual([])
  })
})
