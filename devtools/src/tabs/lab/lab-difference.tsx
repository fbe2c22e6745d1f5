import type { ContextPolicy } from '@threadlens/core'
import type { ProjectionSnapshot } from '@threadlens/react'
import { useMemo } from 'react'
import { formatNumber } from '../../view-models/meter-parts'
import { changedOptions } from '../../view-models/policy-fields'
import { recallComparison } from '../../view-models/recall-words'
import { turnDiff } from '../../view-models/turn-diff'
import { LabColumns } from './lab-columns'
import { signed } from '../shared/turn-diff-view'
import { ProjectionStatus } from '../shared/projection-status'

interface LabDifferenceProps {
  /** The projection under the app's own policy. */
  readonly base: ProjectionSnapshot
  /** The projection under the policy being tried. */
  readonly lab: ProjectionSnapshot
  readonly basePolicy: ContextPolicy
  readonly current: ContextPolicy
}

/** The policy lab's comparison: token and message deltas, the options changed, and both projections side by side. */
export function LabDifference({ base, lab, basePolicy, current }: LabDifferenceProps) {
  const diff = useMemo(
    () => (base.result === undefined || lab.result === undefined ? undefined : turnDiff(base.result, lab.result)),
    [base.result, lab.result],
  )
  return (
    <section className="tl-card" aria-label="difference" data-testid="lab-diff">
      <h3 className="tl-h">App policy → this policy</h3>
      {diff === undefined || base.result === undefined || lab.result === undefined ? (
        <ProjectionStatus snapshot={lab.result === undefined ? lab : base} />
      ) : (
        <>
          <p>
            tokens <strong data-testid="lab-token-delta">{signed(diff.tokenDelta)}</strong> ({formatNumber(diff.tokensBefore)} →{' '}
            {formatNumber(diff.tokensAfter)}) · messages {signed(lab.result.messages.length - base.result.messages.length)} ·{' '}
            <span className="tl-change-entering" data-testid="lab-entered" data-count={diff.entered}>
              {diff.entered} entering
            </span>{' '}
            ·{' '}
            <span className="tl-change-leaving" data-testid="lab-left" data-count={diff.left}>
              {diff.left} leaving
            </span>{' '}
            ·{' '}
            <span className="tl-change-changed" data-testid="lab-reshaped" data-count={diff.changed}>
              {diff.changed} changing form
            </span>
          </p>
          <RecallLine text={recallComparison(base.result.meta, lab.result.meta)} />
          <h4 className="tl-h">Changed options</h4>
          <ul className="tl-mono" data-testid="lab-changed">
            {changedOptions(basePolicy, current).map((line) => (
              <li key={line}>{line}</li>
            ))}
            {changedOptions(basePolicy, current).length === 0 ? <li className="tl-muted">none: the app policy</li> : null}
          </ul>
          <LabColumns base={base.result} lab={lab.result} />
        </>
      )}
    </section>
  )
}

function RecallLine({ text }: { readonly text: string | undefined }) {
  if (text === undefined) return null
  return (
    <p data-testid="lab-recall">
      <span className="tl-swatch tl-part-recall tl-inline-swatch" aria-hidden="true" /> {text}
    </p>
  )
}
