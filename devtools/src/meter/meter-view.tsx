import type { ProjectionMeta } from '@threadlens/core'
import { estimateIdEncoding } from '@threadlens/core/internal'
import { formatNumber, formatPercent, meterModel, type MeterModel, type MeterPart } from '../view-models/meter-parts'
import type { MeterColorScheme } from './meter-palette'

/** `compact`: the bar and "used / budget tokens (fill)"; `full`: also the counter, the warnings and a legend of every part. */
export type TokenMeterVariant = 'compact' | 'full'

/** The accessible name of a meter when the app gives none. */
export const DEFAULT_METER_LABEL = 'Context tokens used'

/**
 * What a meter says about itself in `data-*` attributes, for scripts, styles and tests: `status`
 * (`loading` until there is a projection, then `ready`), and then `total` (tokens the request
 * uses), `budget` (the input budget: window minus reserved output), `exact` (`true` when counted
 * with the policy's encoding, `false` for an estimate) and `level` (`ok`, `amber` over 75 %, `red`
 * over 90 % of the budget).
 */
export function meterAttributes(meta: ProjectionMeta | undefined): Record<string, string> {
  if (meta === undefined) return { 'data-status': 'loading' }
  const model = meterModel(meta)
  return {
    'data-status': 'ready',
    'data-total': String(model.used),
    'data-budget': String(model.budget),
    'data-exact': String(meta.counter.exact),
    'data-level': model.level,
  }
}

export interface MeterViewProps {
  readonly meta: ProjectionMeta | undefined
  readonly variant: TokenMeterVariant
  readonly colorScheme: MeterColorScheme
  readonly label: string
  /** Attributes of the root element (the panel's test ids and `meterAttributes`); an app's meter puts them on its shadow host instead. */
  readonly attributes?: Readonly<Record<string, string | undefined>>
}

/** The parts that take room in the input budget and are drawn on the bar (free space is the bar's background). */
function drawnParts(model: MeterModel): MeterPart[] {
  return model.parts.filter((part) => part.key !== 'reserved' && part.key !== 'free')
}

function partsInWords(model: MeterModel): string {
  const used = drawnParts(model).filter((part) => part.tokens > 0)
  return used.length === 0 ? 'nothing yet' : used.map((part) => `${part.label} ${formatNumber(part.tokens)}`).join(', ')
}

/** What counted the tokens; "≈" marks estimates, and the estimate standing in for an encoding still loading says so. */
function counterWords(counter: ProjectionMeta['counter']): string {
  const loading = estimateIdEncoding(counter.id)
  if (loading !== undefined) return `estimated until ${loading} loads`
  return counter.exact ? `exact · ${counter.id}` : `estimated · ${counter.id}`
}

/** The bar: each part drawn as its share of the input budget, read out in words. */
function MeterBar({
  model,
  label,
  estimated,
  description,
}: {
  readonly model: ReturnType<typeof meterModel>
  readonly label: string
  readonly estimated: boolean
  readonly description: string
}) {
  return (
    <div
      className="tl-meter-bar"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={model.budget}
      aria-valuenow={Math.min(model.used, model.budget)}
      aria-valuetext={`${formatNumber(model.used)} of ${formatNumber(model.budget)} tokens (${formatPercent(model.fill)})${estimated ? ', estimated' : ''}: ${description}`}
    >
      {drawnParts(model).map((part) =>
        part.tokens > 0 ? (
          <span
            key={part.key}
            className={`tl-part tl-part-${part.key}`}
            style={{ width: `${part.share * 100}%` }}
            title={`${part.label}: ${formatNumber(part.tokens)} (${formatPercent(part.share)} of the input budget)`}
          />
        ) : null,
      )}
    </div>
  )
}

/** The token meter's markup, inside the panel (its stylesheet has `meterCss`) or in an app's meter's own shadow root. */
export function MeterView({ meta, variant, colorScheme, label, attributes }: MeterViewProps) {
  if (meta === undefined) {
    return (
      <div className="tl-meter" data-scheme={colorScheme} role="status" {...attributes}>
        <span className="tl-meter-muted">counting tokens…</span>
      </div>
    )
  }
  const model = meterModel(meta)
  const estimated = !meta.counter.exact
  const approx = estimated ? '≈' : ''
  const description = partsInWords(model)
  const reserved = meta.budget.reserveOutputTokens
  const bar = <MeterBar model={model} label={label} estimated={estimated} description={description} />
  const className = `tl-meter tl-meter-${variant} tl-meter-level-${model.level}`
  const title = `${label}: ${description}. ${formatNumber(reserved)} reserved for the reply; window ${formatNumber(model.window)}.`
  if (variant === 'compact') {
    return (
      <div className={className} data-scheme={colorScheme} title={title} {...attributes}>
        {bar}
        <span className="tl-meter-numbers">
          <span data-testid="meter-total">
            {approx}
            {formatNumber(model.used)}
          </span>{' '}
          / <span data-testid="meter-budget">{formatNumber(model.budget)}</span>
          <span className="tl-meter-unit"> tokens</span> <span className="tl-meter-fill">({formatPercent(model.fill)})</span>
          {estimated ? <span className="tl-meter-muted"> (estimated)</span> : null}
        </span>
      </div>
    )
  }
  return (
    <div className={className} data-scheme={colorScheme} {...attributes}>
      <div className="tl-meter-line">
        <span className="tl-meter-numbers" title="tokens sent / input budget (window minus reserved output)">
          <strong data-testid="meter-total">
            {approx}
            {formatNumber(model.used)}
          </strong>{' '}
          of <strong data-testid="meter-budget">{formatNumber(model.budget)}</strong> input tokens{' '}
          <span className="tl-meter-fill" data-testid="meter-fill">
            ({formatPercent(model.fill)})
          </span>
        </span>
        <span className={`tl-meter-badge ${estimated ? 'tl-meter-badge-warn' : 'tl-meter-badge-ok'}`} data-testid="meter-counter">
          {counterWords(meta.counter)}
        </span>
        {meta.overflow ? <span className="tl-meter-badge tl-meter-badge-danger">overflow: the mandatory part alone does not fit</span> : null}
        {meta.truncated ? <span className="tl-meter-badge tl-meter-badge-warn">history truncated</span> : null}
        {meta.needsSummary ? <span className="tl-meter-badge">needs summary ({meta.needsSummaryReason})</span> : null}
      </div>
      <div className="tl-meter-line" title={title}>
        {bar}
        {reserved === 0 ? null : (
          <span className="tl-meter-reserved" title="reserved output: outside the input budget, kept for the reply" data-testid="meter-reserved-bar">
            <span className="tl-meter-swatch tl-part-reserved" aria-hidden="true" /> +{formatNumber(reserved)} reserved
          </span>
        )}
      </div>
      <ul className="tl-meter-legend" data-testid="meter-legend" aria-label="Token meter parts">
        {model.parts.map((part) => (
          <li key={part.key} data-testid={`meter-${part.key}`}>
            <span className={`tl-meter-swatch tl-part-${part.key}`} aria-hidden="true" />
            {part.label} <span className="tl-meter-number">{formatNumber(part.tokens)}</span>
            <span
              className="tl-meter-number tl-meter-muted"
              title={part.key === 'reserved' ? 'kept for the reply: not part of the input budget' : 'share of the input budget'}
            >
              ({part.key === 'reserved' ? 'for output' : formatPercent(part.share)})
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
