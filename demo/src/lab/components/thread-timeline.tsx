import { entryPreview } from '../entry-preview'
import type { TimelineRow } from '../timeline-state'

export function ThreadTimeline({ rows }: { rows: readonly TimelineRow[] }) {
  const counts = { included: 0, dropped: 0, summarized: 0 }
  for (const row of rows) counts[row.state] += 1
  return (
    <section className="panel" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">
        Thread timeline{' '}
        <span className="muted" data-testid="timeline-counts">
          ({rows.length} entries: {counts.included} included, {counts.summarized} summarized, {counts.dropped} dropped)
        </span>
      </h2>
      <ol className="timeline" aria-label="Thread timeline" tabIndex={0}>
        {rows.map((row) => (
          <li
            key={row.entry.id}
            className={`timeline-row state-${row.state}`}
            data-testid="timeline-row"
            data-seq={row.entry.seq}
            data-state={row.state}
          >
            <span className="seq">#{row.entry.seq}</span>
            <span className={`kind kind-${row.entry.kind}`}>{row.entry.kind}</span>
            <span className="state">
              {row.state}
              {row.pinned ? ' · pinned' : ''}
            </span>
            <span className="detail muted" title={row.detail}>
              {row.detail}
            </span>
            <span className="preview" title={entryPreview(row.entry)}>
              {entryPreview(row.entry)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  )
}
