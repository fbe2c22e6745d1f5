import { estimateCost } from '@threadlens/core/models'
import { METER_AMBER_RATIO, METER_RED_RATIO } from '../constants'
import { formatNumber, formatPercent, meterModel } from '../model/meter-parts'
import { usePanel } from '../panel/panel-context'
import { usePanelProjection } from '../panel/panel-projection'
import { ContextMap } from './context-map'
import { MeterBar } from './meter-bar'
import { ProjectionStatus } from './projection-status'

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 5 })

/** The token meter in full: what takes the room (a treemap), every part with its tokens and share of the input budget, counter, flags, cost. */
export function TokensTab() {
  const panel = usePanel()
  const projection = usePanelProjection()
  const result = projection.result
  if (result === undefined) return <ProjectionStatus snapshot={projection} />
  const { meta } = result
  const model = meterModel(meta)
  const modelId = panel.policy.model
  const inputCost = modelId === undefined ? undefined : estimateCost({ inputTokens: meta.tokens.total, outputTokens: 0 }, modelId)
  const fullCost = modelId === undefined ? undefined : estimateCost({ inputTokens: meta.tokens.total, outputTokens: meta.budget.reserveOutputTokens }, modelId)
  return (
    <>
      <MeterBar meta={meta} />
      <div className="tl-row">
        <span className={`tl-badge ${meta.counter.exact ? 'tl-ok' : 'tl-warn'}`} data-testid="meter-counter">
          {meta.counter.exact ? `exact · ${meta.counter.id}` : `estimated · ${meta.counter.id}`}
        </span>
        <span className="tl-muted">
          shares of the input budget {formatNumber(model.budget)} (window {formatNumber(model.window)} − reserved output) · amber over {formatPercent(METER_AMBER_RATIO)}, red over{' '}
          {formatPercent(METER_RED_RATIO)} of the input budget
        </span>
        {meta.overflow ? <span className="tl-badge tl-danger">overflow: the mandatory part alone does not fit</span> : null}
        {meta.truncated ? <span className="tl-badge tl-warn">history truncated</span> : null}
        {meta.needsSummary ? <span className="tl-badge tl-info">needs summary ({meta.needsSummaryReason})</span> : null}
      </div>
      <div className="tl-legend" data-testid="meter-legend">
        {model.parts.map((part) => (
          <div key={part.key} style={{ display: 'contents' }} data-testid={`meter-${part.key}`}>
            <span className={`tl-swatch tl-part-${part.key}`} aria-hidden="true" />
            <span>{part.label}</span>
            <span className="tl-num">{formatNumber(part.tokens)}</span>
            <span className="tl-num tl-muted" title={part.key === 'reserved' ? 'kept for the reply: not part of the input budget' : 'share of the input budget'}>
              {part.key === 'reserved' ? 'for output' : formatPercent(part.share)}
            </span>
          </div>
        ))}
      </div>
      <ContextMap result={result} />
      <p className="tl-muted" data-testid="meter-cost">
        {modelId === undefined
          ? 'Cost: set policy.model (or pick a model in the Policy lab) for a list-price estimate.'
          : inputCost === undefined
            ? `Cost: no list price known for ${modelId}.`
            : `Cost at ${modelId} list prices: ${dollars.format(inputCost)} input, up to ${dollars.format(fullCost ?? inputCost)} with the full reserved output.`}
      </p>
    </>
  )
}
