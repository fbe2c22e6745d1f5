import type { ProjectionMeta } from '@threadlens/core'
import { rangeText } from '../../view-models/left-out'
import { recallSummary } from '../../view-models/recall-words'
import { usePanel } from '../../panel/panel-context'

const SEQS_SHOWN = 12

/**
 * What recall did for this request, in words: the older entries it brought back (each opens in the
 * timeline) and what it searched for, or why it sent nothing. Nothing when the policy has no recall.
 * `indexPending`: the projection is the panel's own, made before its recall index had loaded.
 */
export function RecallNote({ meta, indexPending }: { readonly meta: ProjectionMeta; readonly indexPending: boolean }) {
  const panel = usePanel()
  const summary = recallSummary(meta, { indexPending })
  if (summary === undefined) return null
  const seqs = meta.recall?.seqs ?? []
  const open = (seq: number) => {
    panel.selectSeq(seq)
    panel.ui.getState().setTab('timeline')
  }
  return (
    <section className="tl-card" aria-label="recall" data-testid="recall-note" data-status={summary.status} data-reason={summary.reason}>
      <p className="tl-h">
        <span className="tl-swatch tl-part-recall tl-inline-swatch" aria-hidden="true" /> {summary.text}
      </p>
      {summary.query === '' ? null : <p className="tl-muted">Searched for: {summary.query}</p>}
      {seqs.length === 0 ? null : (
        <div className="tl-row" style={{ gap: 4 }}>
          {seqs.slice(0, SEQS_SHOWN).map((seq) => (
            <button key={seq} type="button" className="tl-link tl-mono" onClick={() => open(seq)} title="show in the timeline">
              {rangeText({ fromSeq: seq, toSeq: seq })}
            </button>
          ))}
          {seqs.length > SEQS_SHOWN ? <span className="tl-muted">and {seqs.length - SEQS_SHOWN} more</span> : null}
        </div>
      )}
    </section>
  )
}
