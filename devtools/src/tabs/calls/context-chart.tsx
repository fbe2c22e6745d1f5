import type { Entry } from '@threadlens/core'
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { TraceRow } from '../../view-models/call-trace-rows'
import {
  axisTicks,
  bucketWords,
  callTicks,
  chartBuckets,
  chartSummary,
  contextSeries,
  hasFigures,
  shortTokens,
  type ChartBucket,
  type ContextPoint,
} from '../../view-models/context-chart'
import { formatNumber } from '../../view-models/meter-parts'

/** Line colours on the panel's background (#161a20): each at 3:1 or more, and each line drawn its own way too. */
const colours = {
  sent: '#5b9dff',
  reported: '#3fb37f',
  cached: '#e0a030',
  budget: '#dfe4ea',
  summary: '#c39bff',
  recall: '#4fd1c5',
  unanswered: '#ff938c',
  text: '#a3adba',
  grid: '#2c333d',
} as const
const dashes = { sent: undefined, reported: '6 3', cached: '2 3', budget: '10 4' } as const

const HEIGHT = 150
const margin = { top: 14, right: 10, bottom: 22, left: 40 } as const
/** Narrowest a run of calls is drawn: more calls than fit are drawn in runs (each at its peak). */
const PIXELS_PER_BUCKET = 4
const MAX_BUCKETS = 240
/** Up to this many runs, each request's figures get a dot too (one call alone is a dot). */
const DOTS_UP_TO = 40

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

type Figure = 'sent' | 'reported' | 'cached'

/** A line through the buckets that have the figure (a request without it is a gap in what is known, not a zero: the line goes on; the budget's breaks). */
function linePath(
  buckets: readonly ChartBucket[],
  figure: Figure | 'budget',
  x: (index: number) => number,
  y: (value: number) => number,
  half: number,
): string {
  let path = ''
  let open = false
  for (const [index, bucket] of buckets.entries()) {
    const value = bucket[figure]
    if (value === undefined) {
      if (figure === 'budget') open = false
      continue
    }
    // The budget is a step: level over its run, changing between runs.
    if (figure === 'budget') path += `${open ? 'L' : 'M'}${(x(index) - half).toFixed(1)} ${y(value).toFixed(1)}H${(x(index) + half).toFixed(1)}`
    else path += `${open ? 'L' : 'M'}${x(index).toFixed(1)} ${y(value).toFixed(1)}`
    open = true
  }
  return path
}

const legend: readonly { readonly figure: Figure | 'budget'; readonly words: string }[] = [
  { figure: 'sent', words: 'prompt tokens sent (counted here)' },
  { figure: 'reported', words: 'prompt tokens the provider counted' },
  { figure: 'cached', words: 'read from the provider’s cache' },
  { figure: 'budget', words: 'input budget of the policy' },
]

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
      <ul
        className="tl-row tl-muted"
        style={{ listStyle: 'none', margin: '4px 0 0', padding: 0, gap: '2px 14px', fontSize: 11 }}
        data-testid="context-chart-legend"
      >
        {legend.map((item) => (
          <li key={item.figure} style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
            <svg width="22" height="8" aria-hidden="true" focusable="false">
              <line x1="1" y1="4" x2="21" y2="4" stroke={colours[item.figure]} strokeWidth="2" strokeDasharray={dashes[item.figure]} />
            </svg>
            {item.words}
          </li>
        ))}
        <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <svg width="10" height="8" aria-hidden="true" focusable="false">
            <path d="M1 1H9L5 7Z" fill={colours.summary} />
          </svg>
          summary written
        </li>
        <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <svg width="10" height="10" aria-hidden="true" focusable="false">
            <path d="M5 1L9 5L5 9L1 5Z" fill={colours.recall} />
          </svg>
          recall brought entries back
        </li>
        <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <svg width="10" height="10" aria-hidden="true" focusable="false">
            <path d="M2 2L8 8M8 2L2 8" stroke={colours.unanswered} strokeWidth="2" />
          </svg>
          not answered
        </li>
      </ul>
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

// long: one SVG, its axes, lines, marks and the points' keyboard handling read best together
function Plot({
  points,
  width,
  selected,
  onSelect,
  summary,
}: {
  readonly points: readonly ContextPoint[]
  readonly width: number
  readonly selected: string
  readonly onSelect: (key: string) => void
  readonly summary: string
}) {
  const plotWidth = Math.max(40, width - margin.left - margin.right)
  const plotHeight = HEIGHT - margin.top - margin.bottom
  const buckets = useMemo(() => chartBuckets(points, Math.min(MAX_BUCKETS, Math.floor(plotWidth / PIXELS_PER_BUCKET))), [points, plotWidth])
  const selectedIndex = points.findIndex((point) => point.key === selected)
  const selectedBucket = buckets.findIndex((bucket) => bucket.first <= selectedIndex && selectedIndex <= bucket.last)
  // The point that is the chart's one tab stop: the one the arrow keys last moved to, until the selection changes.
  const [active, setActive] = useState<{ readonly index: number; readonly selected: string } | undefined>(undefined)
  const [focused, setFocused] = useState<number | undefined>(undefined)
  const svg = useRef<SVGSVGElement>(null)
  const current = Math.min(
    buckets.length - 1,
    active !== undefined && active.selected === selected ? active.index : selectedBucket === -1 ? buckets.length - 1 : selectedBucket,
  )
  let top = 0
  for (const bucket of buckets) top = Math.max(top, bucket.sent ?? 0, bucket.reported ?? 0, bucket.cached ?? 0, bucket.budget ?? 0)
  const yTicks = axisTicks(top, plotHeight < 100 ? 3 : 4)
  const yMax = Math.max(1, yTicks[yTicks.length - 1] as number)
  const step = plotWidth / buckets.length
  const x = (index: number) => margin.left + (index + 0.5) * step
  const y = (value: number) => margin.top + plotHeight - (value / yMax) * plotHeight
  const xLabels = callTicks(points.length, plotWidth < 400 ? 4 : plotWidth < 700 ? 6 : 8)
  const bucketOf = (request: number) =>
    Math.min(buckets.length - 1, Math.floor(request / Math.max(1, buckets[0] === undefined ? 1 : buckets[0].last - buckets[0].first + 1)))
  const move = (to: number) => {
    const next = Math.max(0, Math.min(buckets.length - 1, to))
    setActive({ index: next, selected })
    svg.current?.querySelector<SVGRectElement>(`[data-bucket="${next}"]`)?.focus()
  }
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const moves: Readonly<Record<string, number>> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: buckets.length - 1,
    }
    if (event.key in moves) {
      event.preventDefault()
      move(moves[event.key] as number)
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onSelect((buckets[index] as ChartBucket).key)
    }
  }
  const dots = buckets.length <= DOTS_UP_TO
  return (
    <svg
      ref={svg}
      width={width}
      height={HEIGHT}
      role="group"
      aria-label={summary}
      data-testid="context-chart-svg"
      data-buckets={buckets.length}
      style={{ display: 'block', overflow: 'visible', fontSize: 10.5 }}
    >
      {yTicks.map((tick) => (
        <g key={tick}>
          <line x1={margin.left} x2={margin.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={colours.grid} />
          <text x={margin.left - 5} y={y(tick) + 3.5} textAnchor="end" fill={colours.text}>
            {shortTokens(tick)}
          </text>
        </g>
      ))}
      {xLabels.map((call) => (
        <text key={call} x={x(bucketOf(call - 1))} y={HEIGHT - 6} textAnchor="middle" fill={colours.text} data-testid="context-chart-x-label">
          {call}
        </text>
      ))}
      {selectedBucket === -1 ? null : (
        <rect
          x={x(selectedBucket) - step / 2}
          y={margin.top}
          width={step}
          height={plotHeight}
          fill={colours.sent}
          opacity={0.18}
          data-testid="context-chart-selected"
        />
      )}
      <path d={linePath(buckets, 'cached', x, y, step / 2)} fill="none" stroke={colours.cached} strokeWidth={1.5} strokeDasharray={dashes.cached} />
      <path
        d={linePath(buckets, 'budget', x, y, step / 2)}
        fill="none"
        stroke={colours.budget}
        strokeWidth={1.5}
        strokeDasharray={dashes.budget}
        data-testid="context-chart-budget"
      />
      <path
        d={linePath(buckets, 'reported', x, y, step / 2)}
        fill="none"
        stroke={colours.reported}
        strokeWidth={1.5}
        strokeDasharray={dashes.reported}
      />
      <path d={linePath(buckets, 'sent', x, y, step / 2)} fill="none" stroke={colours.sent} strokeWidth={2} data-testid="context-chart-sent" />
      {dots
        ? buckets.flatMap((bucket, index) =>
            (['cached', 'reported', 'sent'] as const).map((figure) => {
              const value = bucket[figure]
              return value === undefined ? null : (
                <circle key={`${figure}-${index}`} cx={x(index)} cy={y(value)} r={figure === 'sent' ? 3 : 2.5} fill={colours[figure]} />
              )
            }),
          )
        : null}
      {buckets.map((bucket, index) =>
        bucket.summaries.length === 0 ? null : (
          <path
            key={`s${index}`}
            d={`M${x(index) - 4} ${margin.top - 8}H${x(index) + 4}L${x(index)} ${margin.top - 1}Z`}
            fill={colours.summary}
            data-testid="context-chart-summary"
          />
        ),
      )}
      {buckets.map((bucket, index) =>
        bucket.recalled === 0 ? null : (
          <path key={`r${index}`} d={`M${x(index)} ${margin.top + 2}l4 4l-4 4l-4 -4Z`} fill={colours.recall} data-testid="context-chart-recall" />
        ),
      )}
      {buckets.map((bucket, index) =>
        bucket.unanswered === 0 ? null : (
          <path
            key={`u${index}`}
            d={`M${x(index) - 3} ${margin.top + plotHeight - 9}l6 6m0 -6l-6 6`}
            stroke={colours.unanswered}
            strokeWidth={2}
            data-testid="context-chart-unanswered"
          />
        ),
      )}
      {focused === undefined ? null : (
        <rect
          x={x(focused) - step / 2 + 1}
          y={margin.top + 1}
          width={Math.max(2, step - 2)}
          height={plotHeight - 2}
          fill="none"
          stroke={colours.sent}
          strokeWidth={2}
        />
      )}
      {buckets.map((bucket, index) => {
        const words = bucketWords(bucket, points)
        return (
          <rect
            key={`h${index}`}
            data-bucket={index}
            data-testid="context-chart-point"
            data-key={bucket.key}
            x={x(index) - step / 2}
            y={margin.top}
            width={step}
            height={plotHeight}
            fill="transparent"
            role="button"
            tabIndex={index === current ? 0 : -1}
            aria-label={words}
            aria-current={index === selectedBucket ? 'true' : undefined}
            style={{ cursor: 'pointer', outline: 'none' }}
            onClick={() => onSelect(bucket.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
            onFocus={() => setFocused(index)}
            onBlur={() => setFocused(undefined)}
          >
            <title>{words}</title>
          </rect>
        )
      })}
    </svg>
  )
}

const cell = (value: number | undefined) => (value === undefined ? '—' : formatNumber(value))

function FigureTable({
  points,
  selected,
  onSelect,
}: {
  readonly points: readonly ContextPoint[]
  readonly selected: string
  readonly onSelect: (key: string) => void
}) {
  return (
    <table className="tl-table tl-mono" data-testid="context-chart-rows" style={{ fontSize: 11 }}>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">call</th>
          <th scope="col">status</th>
          <th scope="col">sent</th>
          <th scope="col">provider counted</th>
          <th scope="col">read from cache</th>
          <th scope="col">budget</th>
          <th scope="col">summary written</th>
          <th scope="col">recalled entries</th>
        </tr>
      </thead>
      <tbody>
        {points.map((point) => (
          <tr key={point.key} aria-current={point.key === selected ? 'true' : undefined}>
            <td>{point.index + 1}</td>
            <td>
              <button
                type="button"
                className="tl-more"
                style={{ marginLeft: 0 }}
                onClick={() => onSelect(point.key)}
                aria-label={`show request ${point.index + 1} (call ${point.callId}) in the list`}
              >
                {point.callId}
                {point.attempt > 1 ? ` #${point.attempt}` : ''}
              </button>
            </td>
            <td>{point.status}</td>
            <td>{cell(point.sent)}</td>
            <td>{cell(point.reported)}</td>
            <td>{cell(point.cached)}</td>
            <td>{cell(point.budget)}</td>
            <td>{point.summaries.length === 0 ? '' : point.summaries.map((seq) => `#${seq}`).join(', ')}</td>
            <td>{point.recalled === undefined ? '' : formatNumber(point.recalled)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
