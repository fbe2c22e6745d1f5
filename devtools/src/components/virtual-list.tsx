import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, type ReactNode } from 'react'
import { LIST_OVERSCAN } from '../constants'
import { FixedRowList } from './fixed-row-list'

export interface VirtualListProps {
  readonly count: number
  /** Row height in pixels, exact for fixed rows, a guess for measured ones. */
  readonly rowHeight: number
  /** Measure each row's real height (rows of varying height). Default false: fixed rows. */
  readonly measure?: boolean
  readonly renderRow: (index: number) => ReactNode
  readonly rowKey?: (index: number) => string | number
  readonly label: string
  readonly testId?: string
  readonly className?: string
  /** Start at the end and stay there while new rows arrive, unless the user scrolled up. Default false. */
  readonly followEnd?: boolean
  /** A row to bring into view (e.g. the one opened from another tab); scrolls when it changes. Default none. */
  readonly scrollToRow?: number
}

/**
 * Only the rows in view (plus a few) are in the DOM, so 10k-entry threads stay smooth. Rows of one
 * height are placed by arithmetic (`FixedRowList`); measured rows by @tanstack/react-virtual.
 */
export function VirtualList(props: VirtualListProps) {
  return props.measure === true ? <MeasuredList {...props} /> : <FixedRowList {...props} />
}

function MeasuredList({ count, rowHeight, renderRow, rowKey, label, testId, className, followEnd = false, scrollToRow }: VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // A list opened on a given row does not jump to its end.
  const atEnd = useRef(scrollToRow === undefined)
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: LIST_OVERSCAN,
    // Following lists open at their end; the layout effect below keeps them there.
    ...(scrollToRow !== undefined && scrollToRow >= 0 && scrollToRow < count
      ? { initialOffset: () => Math.max(0, scrollToRow * rowHeight - 2 * rowHeight) }
      : followEnd
        ? { initialOffset: () => Math.max(0, count * rowHeight) }
        : {}),
    ...(rowKey === undefined ? {} : { getItemKey: rowKey }),
  })
  useLayoutEffect(() => {
    if (followEnd && atEnd.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' })
  }, [followEnd, count, virtualizer])
  useLayoutEffect(() => {
    if (scrollToRow === undefined || scrollToRow < 0 || scrollToRow >= count) return
    // A row asked for by the user wins over following the end.
    atEnd.current = false
    virtualizer.scrollToIndex(scrollToRow, { align: 'auto' })
    // Only when the row asked for changes, not on every append.
  }, [scrollToRow, virtualizer])
  const onScroll = () => {
    const element = scrollRef.current
    if (element !== null) atEnd.current = element.scrollTop + element.clientHeight >= element.scrollHeight - rowHeight
  }
  const items = virtualizer.getVirtualItems()
  return (
    // Repeated on purpose: the scroll element of devtools/src/components/fixed-row-list.tsx (keep them alike; a shared helper cost gzipped bytes).
    <div
      ref={scrollRef}
      onScroll={followEnd ? onScroll : undefined}
      className={`tl-scroll ${className ?? ''}`}
      role="list"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      data-count={count}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((item) => (
          <div
            key={item.key}
            role="listitem"
            data-index={item.index}
            ref={virtualizer.measureElement}
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
          >
            {renderRow(item.index)}
          </div>
        ))}
      </div>
    </div>
  )
}
