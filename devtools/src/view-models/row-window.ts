/** The rows of a fixed-height list to put in the DOM: `from` inclusive, `to` exclusive. */
export interface RowWindow {
  readonly from: number
  readonly to: number
}

/**
 * Which rows of a list of `count` rows, each `rowHeight` pixels, show in a viewport of
 * `viewportHeight` pixels scrolled to `scrollTop`, plus `overscan` rows on each side. Constant
 * time: a fixed-height list needs no per-row measurements, so an append costs the same on a
 * 10-row and a 10,000-row thread. A viewport not laid out yet (height 0) still gets the overscan
 * rows, so the first paint is never empty.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan: number): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { from: 0, to: 0 }
  const maxTop = Math.max(0, count * rowHeight - viewportHeight)
  const top = Math.min(Math.max(0, scrollTop), maxTop)
  const first = Math.floor(top / rowHeight)
  const last = Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight)
  return { from: Math.max(0, first - overscan), to: Math.min(count, Math.max(last, first + 1) + overscan) }
}

/** The scroll offset that shows the last row at the bottom of the viewport. */
export function endOffset(count: number, rowHeight: number, viewportHeight: number): number {
  return Math.max(0, count * rowHeight - viewportHeight)
}
