import type { Entry } from '@threadlens/core'
import { useLayoutEffect, useMemo, useState } from 'react'
import type { TraceRow } from '../../view-models/call-trace-rows'
import { chartSummary, contextSeries, hasFigures } from '../../view-models/context-chart'
import { ChartLegend } from './context-chart-legend'
import { Plot } from './context-chart-plot'
import { FigureTable } from './context-chart-table'

function useWidth(): [number | undefined, (element: HTMLDivElement | null) => void] {
  const [element, setElement] = useState<HTMLDivElement | null>(null)
  const [width, setWidth] = useState<number | undefined>(undefined)
  useLayoutEffect(() => {
    if (element === null) return
    setWidth(element.clientWidth)
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return [width, setElement]
}

/**
 * The prompt each request sent, oldest first, against its policy's input budget: counted here,
 * counted by the provider, read from its cache; a mark where a summary was written and where a
 * request was not answered. A point (a run of requests when there are more than fit) selects its
 * request in the list; arrow keys move between points. The same figures are in a table under it.
 */
export function ContextChart({
  rows,
  entries,
  selected,
  onSelect,
}: {
  readonly rows: readonly TraceRow[]
  readonly entries: readonly Entry[]
  readonly selected: string
  readonly onSelect: (key: string) => void
}) {
  const points = useMemo(() => contextSeries(rows, entries), [rows, entries])
  const drawable = useMemo(() => points.some(hasFigures), [points])
  const [width, measure] = useWidth()
  const [table, setTable] = useState(false)
  if (points.length === 0) return null
  if (!drawable) {
    return (
      <p className="tl-muted" data-testid="context-chart-empty">
        Prompt size per request: no request recorded its token count or its policy, nothing to draw.
      </p>
    )
  }
  const summary = chartSummary(points)
  return (
    <section className="tl-card" data-testid="context-chart" aria-label="prompt size per request" style={{ flex: 'none' }}>
      <p className="tl-h">Prompt size per request, oldest first</p>
      <div ref={measure} style={{ width: '100%', minWidth: 0 }}>
        {width === undefined || width <= 0 ? null : <Plot points={points} width={width} selected={selected} onSelect={onSelect} summary={summary} />}
      </div>
      <ChartLegend />
      <details data-testid="context-chart-table" onToggle={(event) => setTable(event.currentTarget.open)}>
        <summary>the figures, one row per request</summary>
        {table ? (
          <div style={{ overflowX: 'auto' }}>
            <FigureTable points={points} selected={selected} onSelect={onSelect} />
          </div>
        ) : null}
      </details>
    </section>
  )
}
