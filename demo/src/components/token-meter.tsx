import type { ProjectionMeta } from '@threadlens/core'

interface MeterPart {
  readonly key: string
  readonly label: string
  readonly tokens: number
}

function meterParts(meta: ProjectionMeta): MeterPart[] {
  const { tokens, budget } = meta
  return [
    { key: 'system', label: 'system', tokens: tokens.system },
    { key: 'memory', label: 'memory', tokens: tokens.memory },
    { key: 'summary', label: 'summary', tokens: tokens.summary },
    { key: 'history', label: 'history', tokens: tokens.history },
    { key: 'pending', label: 'pending', tokens: tokens.pending },
    { key: 'tools', label: 'tools', tokens: tokens.tools },
    { key: 'reserved', label: 'reserved output', tokens: budget.reserveOutputTokens },
    { key: 'free', label: 'free', tokens: Math.max(0, budget.free) },
  ]
}

const formatNumber = new Intl.NumberFormat('en-US')

/** Stacked bar of the whole context window: what the request uses, what is reserved, what is free. */
export function TokenMeter({ meta }: { meta: ProjectionMeta }) {
  const parts = meterParts(meta)
  const windowTokens = Math.max(meta.budget.maxInputTokens, meta.tokens.total + meta.budget.reserveOutputTokens)
  const used = Math.round((meta.tokens.total / meta.budget.input) * 100)
  return (
    <section
      className="meter"
      data-testid="token-meter"
      data-total={meta.tokens.total}
      data-input-budget={meta.budget.input}
      aria-label="Token meter"
    >
      <div className="meter-summary">
        <span>
          <strong data-testid="meter-total">{formatNumber.format(meta.tokens.total)}</strong> of{' '}
          <strong data-testid="meter-budget">{formatNumber.format(meta.budget.input)}</strong> input tokens ({used}%)
        </span>
        <span className="meter-counter" data-testid="meter-counter">
          {meta.counter.id} · {meta.counter.exact ? 'exact' : 'estimate'}
        </span>
        {meta.overflow ? <span className="badge badge-danger">overflow</span> : null}
        {meta.truncated ? <span className="badge badge-warn">truncated</span> : null}
        {meta.needsSummary ? <span className="badge">needs summary ({meta.needsSummaryReason})</span> : null}
      </div>
      <div className="meter-bar" role="img" aria-label={parts.map((part) => `${part.label} ${part.tokens}`).join(', ')}>
        {parts.map((part) =>
          part.tokens > 0 ? (
            <span
              key={part.key}
              className={`meter-part part-${part.key}`}
              style={{ width: `${(part.tokens / windowTokens) * 100}%` }}
              title={`${part.label}: ${part.tokens}`}
            />
          ) : null,
        )}
      </div>
      <ul className="meter-legend">
        {parts.map((part) => (
          <li key={part.key} data-testid={`meter-${part.key}`}>
            <span className={`swatch part-${part.key}`} aria-hidden="true" />
            {part.label} <span className="number">{formatNumber.format(part.tokens)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
