import type { Entry, ProjectionResult, TokenCounter } from '@threadlens/core'
import { useDeferredValue, useMemo } from 'react'
import { leftOut, rangeText, type LeftOutReason } from '../model/left-out'
import { formatNumber } from '../model/meter-parts'
import { usePanel } from '../panel/panel-context'

const RANGES_SHOWN = 12

// Red for history the model lost; amber for history it gets in another form; plain for bookkeeping.
function badgeClass(reason: LeftOutReason): string {
  if (reason === 'applied' || reason === 'reset' || reason === 'kind' || reason === 'superseded') return ''
  if (reason === 'summarized' || reason === 'masked' || reason === 'pruned' || reason === 'deduped') return 'tl-warn'
  return 'tl-danger'
}

export interface LeftOutListProps {
  readonly result: ProjectionResult
  /** The thread's entry by seq, to count each group's tokens. */
  readonly entryAt: ((seq: number) => Entry | undefined) | undefined
  readonly counter: TokenCounter | undefined
}

/** What the request leaves out or shortens, grouped by why, with seq ranges, counts and tokens. */
export function LeftOutList({ result, entryAt, counter }: LeftOutListProps) {
  const panel = usePanel()
  // Counting every left-out entry of a 10k-entry thread can take a while cold: ranges and counts
  // paint at once, the tokens in a deferred render right after.
  const withTokens = useDeferredValue(true, false)
  const groups = useMemo(
    () => leftOut(result.meta, withTokens ? { ...(entryAt === undefined ? {} : { entryAt }), ...(counter === undefined ? {} : { counter }) } : {}),
    [result.meta, entryAt, counter, withTokens],
  )
  const absent = groups.filter((group) => group.sent === 'no')
  const count = absent.reduce((sum, group) => sum + group.count, 0)
  const tokens = absent.reduce((sum, group) => (sum === undefined || group.tokens === undefined ? undefined : sum + group.tokens), 0 as number | undefined)
  const open = (seq: number) => {
    panel.selectSeq(seq)
    panel.ui.getState().setTab('timeline')
  }
  return (
    <section className="tl-card" aria-label="left out" data-testid="left-out" data-count={count}>
      <h3 className="tl-h">
        {groups.length === 0
          ? 'Nothing left out: every entry of the thread is sent as written.'
          : `Left out: ${formatNumber(count)} ${count === 1 ? 'entry' : 'entries'}${tokens === undefined || count === 0 ? '' : ` (${formatNumber(tokens)} tokens as written)`}`}
      </h3>
      <ul className="tl-left-out-list">
        {groups.map((group) => (
          <li key={group.reason} className="tl-left-out-group" data-testid="left-out-group" data-reason={group.reason} data-count={group.count}>
            <div className="tl-row">
              <span className={`tl-badge ${badgeClass(group.reason)}`}>{group.label}</span>
              <strong className="tl-num">
                {formatNumber(group.count)} {group.count === 1 ? 'entry' : 'entries'}
              </strong>
              {group.tokens === undefined ? null : <span className="tl-num tl-muted">{formatNumber(group.tokens)} tokens{group.sent === 'shortened' ? ' before shortening' : ''}</span>}
              <span className="tl-muted">{group.rule}</span>
            </div>
            <div className="tl-row" style={{ gap: 4 }}>
              {group.ranges.slice(0, RANGES_SHOWN).map((range) => (
                <button key={range.fromSeq} type="button" className="tl-link tl-mono" onClick={() => open(range.fromSeq)} title="show in the timeline">
                  {rangeText(range)}
                </button>
              ))}
              {group.ranges.length > RANGES_SHOWN ? <span className="tl-muted">and {group.ranges.length - RANGES_SHOWN} more ranges</span> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
