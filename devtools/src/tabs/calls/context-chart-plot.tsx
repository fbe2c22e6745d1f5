import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { axisTicks, bucketWords, callTicks, chartBuckets, shortTokens, type ChartBucket, type ContextPoint } from '../../view-models/context-chart'
import { colours, dashes } from './context-chart-colours'

const HEIGHT = 150
const margin = { top: 14, right: 10, bottom: 22, left: 40 } as const
/** Narrowest a run of calls is drawn: more calls than fit are drawn in runs (each at its peak). */
const PIXELS_PER_BUCKET = 4
const MAX_BUCKETS = 240
/** Up to this many runs, each request's figures get a dot too (one call alone is a dot). */
const DOTS_UP_TO = 40

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

/** The lines, drawn in this order (the sent line on top); the sent and budget lines carry a test id. */
const lines: readonly { readonly figure: Figure | 'budget'; readonly width: number; readonly testId?: string }[] = [
  { figure: 'cached', width: 1.5 },
  { figure: 'budget', width: 1.5, testId: 'context-chart-budget' },
  { figure: 'reported', width: 1.5 },
  { figure: 'sent', width: 2, testId: 'context-chart-sent' },
]

/** The chart's SVG: y axis in tokens, x axis in requests, one column per run of requests, each a button that selects it. */
// long: one SVG, its axes, lines, marks and the points' keyboard handling read best together
export function Plot({
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
      {lines.map((line) => (
        <path
          key={line.figure}
          d={linePath(buckets, line.figure, x, y, step / 2)}
          fill="none"
          stroke={colours[line.figure]}
          strokeWidth={line.width}
          strokeDasharray={dashes[line.figure]}
          data-testid={line.testId}
        />
      ))}
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
