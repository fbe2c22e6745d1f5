/** A rectangle in any unit (the context map uses percentages of its box). */
export interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface TreemapItem<T> {
  /** Size; items of 0 or less (or not finite) get no rectangle. */
  readonly value: number
  readonly data: T
}

export interface TreemapTile<T> extends Box {
  readonly value: number
  readonly data: T
}

interface Scaled<T> {
  readonly item: TreemapItem<T>
  readonly area: number
}

// The worst aspect ratio of a row of areas laid along a side of length `side` (Bruls et al.).
function worstRatio(sum: number, smallest: number, largest: number, side: number): number {
  const sideSquared = side * side
  const sumSquared = sum * sum
  return Math.max((sideSquared * largest) / sumSquared, sumSquared / (sideSquared * smallest))
}

/**
 * Squarified treemap: tiles whose areas are proportional to the values, filling `box` exactly,
 * without overlap, as close to squares as the greedy row rule gets. Largest first, so the biggest
 * consumer is always the top-left tile. Pure; the input is not mutated.
 */
export function squarify<T>(items: readonly TreemapItem<T>[], box: Box): TreemapTile<T>[] {
  const positive = items.filter((item) => Number.isFinite(item.value) && item.value > 0)
  const total = positive.reduce((sum, item) => sum + item.value, 0)
  if (total === 0 || box.width <= 0 || box.height <= 0) return []
  const scale = (box.width * box.height) / total
  // Stable sort: equal values keep their order, so the layout is deterministic.
  const scaled: Scaled<T>[] = positive.map((item) => ({ item, area: item.value * scale })).sort((a, b) => b.area - a.area)
  const tiles: TreemapTile<T>[] = []
  let free: Box = box
  let row: Scaled<T>[] = []
  let rowSum = 0
  const layRow = (last: boolean): void => {
    // Along the shorter side, a strip as thick as the row's area needs; the last strip takes what is left.
    const vertical = free.width >= free.height
    const side = vertical ? free.height : free.width
    const thickness = last ? (vertical ? free.width : free.height) : rowSum / side
    let offset = 0
    row.forEach((entry, index) => {
      const length = index === row.length - 1 ? side - offset : rowSum === 0 ? 0 : (entry.area / rowSum) * side
      tiles.push(
        vertical
          ? { x: free.x, y: free.y + offset, width: thickness, height: length, value: entry.item.value, data: entry.item.data }
          : { x: free.x + offset, y: free.y, width: length, height: thickness, value: entry.item.value, data: entry.item.data },
      )
      offset += length
    })
    free = vertical
      ? { x: free.x + thickness, y: free.y, width: Math.max(0, free.width - thickness), height: free.height }
      : { x: free.x, y: free.y + thickness, width: free.width, height: Math.max(0, free.height - thickness) }
    row = []
    rowSum = 0
  }
  for (let index = 0; index < scaled.length; index++) {
    const next = scaled[index] as Scaled<T>
    if (row.length > 0) {
      const side = Math.min(free.width, free.height)
      const largest = (row[0] as Scaled<T>).area
      const smallest = (row[row.length - 1] as Scaled<T>).area
      const current = worstRatio(rowSum, smallest, largest, side)
      const withNext = worstRatio(rowSum + next.area, Math.min(smallest, next.area), largest, side)
      if (withNext > current) layRow(false)
    }
    row.push(next)
    rowSum += next.area
  }
  if (row.length > 0) layRow(true)
  return tiles
}
