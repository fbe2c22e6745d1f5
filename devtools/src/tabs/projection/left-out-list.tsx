import type { Entry, ProjectionResult, TokenCounter } from '@threadlens/core'
import { useDeferredValue, useMemo } from 'react'
import { leftOut, leftOutHeading, leftOutTotals, rangeText, reasonBadgeClass } from '../../view-models/left-out'
import { formatNumber } from '../../view-models/meter-parts'
import { reasonInWords } from '../../view-models/plain-words'
import { usePanel } from '../../panel/panel-context'

const RANGES_SHOWN = 12

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
  const totals = leftOutTotals(groups)
  const open = (seq: number) => {
    panel.selectSeq(seq)
    panel.ui.getState().setTab('timeline')
  }
  return (
    <section className="tl-card" aria-label="left out" data-testid="left-out" data-count={totals.all.count} data-tokens={totals.all.tokens}>
      <h3 className="tl-h">{leftOutHeading(groups)}</h3>
      <ul className="tl-left-out-list">
        {groups.map((group) => (
          <li key={group.reason} className="tl-left-out-group" data-testid="left-out-group" data-reason={group.reason} data-count={group.count}>
            <div className="tl-row">
              <span className={`tl-badge ${reasonBadgeClass(group.reason)}`}>{group.label}</span>
              <strong className="tl-num">
                {formatNumber(group.count)} {group.count === 1 ? 'entry' : 'entries'}
              </strong>
              {group.tokens === undefined ? null : (
                <span className="tl-num tl-muted">
                  {formatNumber(group.tokens)} tokens{group.sent === 'shortened' ? ' before shortening' : ''}
                </span>
              )}
              {/* What happened and the setting that changes it; the projector's own rule in the tooltip. */}
              <span className="tl-left-out-why" data-testid="left-out-why" title={`rule: ${group.rule}`}>
                {reasonInWords(group.reason, result.meta.summary?.seq, panel.policy).sentence}
              </span>
            </div>
            <div className="tl-row" style={{ gap: 4 }}>
              {group.ranges.slice(0, RANGES_SHOWN).map((range) => (
                <button
                  key={range.fromSeq}
                  type="button"
                  className="tl-link tl-mono"
                  onClick={() => open(range.fromSeq)}
                  title="show in the timeline"
                >
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
