import { estimateCost } from '@threadlens/core/models'
import { METER_AMBER_RATIO, METER_RED_RATIO } from '../../constants'
import { DEFAULT_METER_LABEL, MeterView, meterAttributes } from '../../meter/meter-view'
import { formatNumber, formatPercent, meterModel } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { usePanelProjection } from '../../panel/panel-projection'
import { ContextMap } from './context-map'
import { FindingsList } from './findings-list'
import { ProjectionStatus } from '../shared/projection-status'

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 5 })

/** The token meter in full (every part with its tokens and share of the input budget, counter, flags), what wastes the window (findings), what takes the room (a treemap), cost. */
export function TokensTab() {
  const panel = usePanel()
  const projection = usePanelProjection()
  const result = projection.result
  if (result === undefined) return <ProjectionStatus snapshot={projection} />
  const { meta } = result
  const model = meterModel(meta)
  const modelId = panel.policy.model
  const inputCost = modelId === undefined ? undefined : estimateCost({ inputTokens: meta.tokens.total, outputTokens: 0 }, modelId)
  const fullCost =
    modelId === undefined ? undefined : estimateCost({ inputTokens: meta.tokens.total, outputTokens: meta.budget.reserveOutputTokens }, modelId)
  return (
    <>
      <MeterView
        meta={meta}
        variant="full"
        colorScheme="dark"
        label={DEFAULT_METER_LABEL}
        attributes={{ 'data-testid': 'token-meter', ...meterAttributes(meta) }}
      />
      <p className="tl-muted">
        Shares of the input budget {formatNumber(model.budget)} (window {formatNumber(model.window)} − reserved output) · amber over{' '}
        {formatPercent(METER_AMBER_RATIO)}, red over {formatPercent(METER_RED_RATIO)} of the input budget
      </p>
      {projection.thread === undefined ? null : <FindingsList result={result} thread={projection.thread} />}
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
