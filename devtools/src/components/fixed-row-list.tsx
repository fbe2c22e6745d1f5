import { useLayoutEffect, useRef, useState } from 'react'
import { LIST_OVERSCAN } from '../constants'
import { endOffset, rowWindow } from '../view-models/row-window'
import type { VirtualListProps } from './virtual-list'

/**
 * A virtual list of rows of one known height: which rows are in view is arithmetic on the scroll
 * offset, so a render costs the same whatever the row count (no per-row measurement cache to
 * rebuild when rows are appended), and following the end is one scroll write per commit. The
 * timeline of a 10,000-entry thread re-renders on every append; this keeps that render to the
 * rows in view.
 */
export function FixedRowList({ count, rowHeight, renderRow, rowKey, label, testId, className, followEnd = false, scrollToRow }: VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const initialRow = scrollToRow !== undefined && scrollToRow >= 0 && scrollToRow < count ? scrollToRow : undefined
  // Following the end, or held at an offset. A list opened on a given row does not jump to its end.
  // One state for both: leaving the end always renders, even to the offset held before following.
  const [view, setView] = useState(() => ({
    following: followEnd && initialRow === undefined,
    top: initialRow === undefined ? 0 : Math.max(0, initialRow * rowHeight - 2 * rowHeight),
  }))
  const [viewportHeight, setViewportHeight] = useState(0)
  const top = view.following ? endOffset(count, rowHeight, viewportHeight) : view.top

  useLayoutEffect(() => {
    const element = scrollRef.current
    if (element === null) return undefined
    setViewportHeight(element.clientHeight)
    if (!view.following) element.scrollTop = view.top
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight))
    observer.observe(element)
    return () => observer.disconnect()
    // Once: the initial offset, then the observer keeps the height.
  }, [])
  useLayoutEffect(() => {
    const element = scrollRef.current
    if (element !== null && followEnd && view.following) element.scrollTop = endOffset(count, rowHeight, viewportHeight)
  }, [followEnd, view.following, count, rowHeight, viewportHeight])
  useLayoutEffect(() => {
    if (scrollToRow === undefined || scrollToRow < 0 || scrollToRow >= count) return
    const element = scrollRef.current
    if (element === null) return
    // A row asked for by the user wins over following the end.
    const rowTop = scrollToRow * rowHeight
    if (rowTop < element.scrollTop || rowTop + rowHeight > element.scrollTop + element.clientHeight)
      element.scrollTop = Math.max(0, rowTop - element.clientHeight / 2)
    setView({ following: false, top: element.scrollTop })
    // Only when the row asked for changes, not on every append.
  }, [scrollToRow])

  const onScroll = () => {
    const element = scrollRef.current
    if (element === null) return
    const offset = element.scrollTop
    const following = followEnd && offset + viewportHeight >= count * rowHeight - rowHeight
    // While following, the rows come from the end offset: the scroll this list wrote itself needs no render.
    if (following && view.following) return
    setView({ following, top: offset })
  }
  const { from, to } = rowWindow(count, rowHeight, top, viewportHeight, LIST_OVERSCAN)
  const rows = []
  for (let index = from; index < to; index++) {
    rows.push(
      <div
        key={rowKey === undefined ? index : rowKey(index)}
        role="listitem"
        data-index={index}
        style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: rowHeight, transform: `translateY(${index * rowHeight}px)` }}
      >
        {renderRow(index)}
      </div>,
    )
  }
  return (
    // Repeated on purpose: the scroll element of MeasuredList in devtools/src/components/virtual-list.tsx (keep them alike; a shared helper cost gzipped bytes).
    <div
      ref={scrollRef}
      onScroll={onScroll}
      className={`tl-scroll ${className ?? ''}`}
      role="list"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      data-count={count}
    >
      {/* The rows' containing block keeps one size whatever the count: an append that changed its height
          would make the browser lay out every row in view again. The spacer below gives the scroll extent. */}
      <div style={{ height: 0, position: 'relative', width: '100%' }}>{rows}</div>
      <div style={{ height: count * rowHeight }} aria-hidden="true" />
    </div>
  )
}
