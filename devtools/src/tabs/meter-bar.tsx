import type { ProjectionMeta } from '@threadlens/core'
import { formatNumber, formatPercent, meterModel } from '../model/meter-parts'

/** The stacked bar of the input budget (reserved output beside it); `compact` for the header. */
export function MeterBar({ meta, compact = false }: { readonly meta: ProjectionMeta; readonly compact?: boolean }) {
  const model = meterModel(meta)
  const reserved = model.parts.find((part) => part.key === 'reserved')
  return (
    <div
      className={`tl-row tl-level-${model.level}`}
      data-testid={compact ? 'meter-compact' : 'token-meter'}
      data-total={model.used}
      data-input-budget={model.budget}
      data-level={model.level}
    >
      <div
        className={`tl-meter-bar${compact ? ' tl-compact' : ''}`}
        role="img"
        aria-label={`input budget ${model.budget}: ${model.parts
          .filter((part) => part.key !== 'reserved')
          .map((part) => `${part.label} ${part.tokens}`)
          .join(', ')}; reserved output ${reserved?.tokens ?? 0} beside it`}
      >
        {model.parts.map((part) =>
          part.tokens > 0 && part.key !== 'reserved' ? (
            <span key={part.key} className={`tl-part tl-part-${part.key}`} style={{ width: `${part.share * 100}%` }} title={`${part.label}: ${formatNumber(part.tokens)} (${formatPercent(part.share)} of the input budget)`} />
          ) : null,
        )}
      </div>
      {compact || reserved === undefined || reserved.tokens === 0 ? null : (
        <span className="tl-meter-reserved" title="reserved output: outside the input budget, kept for the reply" data-testid="meter-reserved-bar">
          <span className="tl-swatch tl-part-reserved tl-inline-swatch" aria-hidden="true" /> +{formatNumber(reserved.tokens)} reserved
        </span>
      )}
      <span className="tl-num" title="tokens sent / input budget (window minus reserved output)">
        <span data-testid={compact ? undefined : 'meter-total'}>{formatNumber(model.used)}</span> / {formatNumber(model.budget)}{' '}
        <span className="tl-fill-number" data-testid={compact ? undefined : 'meter-fill'}>
          ({formatPercent(model.fill)})
        </span>
      </span>
    </div>
  )
}
