import type { ContextPoint } from '../../view-models/context-chart'
import { formatNumber } from '../../view-models/meter-parts'

const cell = (value: number | undefined) => (value === undefined ? '—' : formatNumber(value))

/** The chart's figures as a table, one row per request; a row's call button selects that request in the list. */
export function FigureTable({
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
