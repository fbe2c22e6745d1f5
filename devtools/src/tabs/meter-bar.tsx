import type { ProjectionMeta } from '@threadlens/core'
import { formatNumber, formatPercent, meterModel } from '../model/meter-parts'

/** The stacked bar of the whole window; `compact` for the header. */
export function MeterBar({ meta, compact = false }: { readonly meta: ProjectionMeta; readonly compact?: boolean }) {
  const model = meterModel(meta)
  return (
    <div
      className={`tl-row tl-level-${model.level}`}
      data-testid={compact ? 'meter-compact' : 'token-meter'}
      data-total={model.used}
      data-input-budget={model.budget}
      data-level={model.level}
    >
      <div className={`tl-meter-bar${compact ? ' tl-compact' : ''}`} role="img" aria-label={model.parts.map((part) => `${part.label} ${part.tokens}`).join(', ')}>
        {model.parts.map((part) =>
          part.tokens > 0 ? <span key={part.key} className={`tl-part tl-part-${part.key}`} style={{ width: `${part.share * 100}%` }} title={`${part.label}: ${formatNumber(part.tokens)}`} /> : null,
        )}
      </div>
      <span className="tl-num" title="tokens sent / input budget (window minus reserved output)">
        <span data-testid={compact ? undefined : 'meter-total'}>{formatNumber(model.used)}</span> / {formatNumber(model.budget)}{' '}
        <span className="tl-fill-number" data-testid={compact ? undefined : 'meter-fill'}>
          ({formatPercent(model.fill)})
        </span>
      </span>
    </div>
  )
}
