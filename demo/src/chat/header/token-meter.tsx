import type { ProjectionMeta } from '@threadlens/core'

const parts = [
  { key: 'system', label: 'system' },
  { key: 'memory', label: 'memory' },
  { key: 'summary', label: 'summary' },
  { key: 'history', label: 'history' },
  { key: 'pending', label: 'pending' },
  { key: 'tools', label: 'tool schemas' },
] as const

const format = (value: number) => value.toLocaleString('en-US')

/**
 * The context a call uses, by segment, against its input budget (window minus reserved output).
 * `source` says which projection: the call in flight, or the next one.
 */
export function TokenMeter({ meta, source }: { readonly meta: ProjectionMeta | undefined; readonly source: 'in-flight' | 'next-call' }) {
  if (meta === undefined) {
    return (
      <div className="chat-meter" data-testid="chat-token-meter" data-status="loading" role="status">
        <span className="chat-muted">counting tokens…</span>
      </div>
    )
  }
  const budget = meta.budget.input
  const total = meta.tokens.total
  const fill = budget === 0 ? 1 : total / budget
  const level = meta.overflow || fill > 0.9 ? 'high' : fill > 0.75 ? 'mid' : 'low'
  const description = parts
    .filter((part) => meta.tokens[part.key] > 0)
    .map((part) => `${part.label} ${format(meta.tokens[part.key])}`)
    .join(', ')
  return (
    <div
      className={`chat-meter chat-meter--${level}`}
      data-testid="chat-token-meter"
      data-status="ready"
      data-exact={meta.counter.exact}
      data-total={total}
      data-budget={budget}
      data-source={source}
      title={`${source === 'in-flight' ? 'The call in flight' : 'The next call'}: ${description}. ${format(meta.budget.reserveOutputTokens)} reserved for the reply; window ${format(meta.budget.maxInputTokens)}.`}
    >
      <div
        className="chat-meter-bar"
        role="meter"
        aria-label="Context tokens used"
        aria-valuemin={0}
        aria-valuemax={budget}
        aria-valuenow={Math.min(total, budget)}
        aria-valuetext={`${format(total)} of ${format(budget)} tokens${meta.counter.exact ? '' : ', estimated'} (${description})`}
      >
        {parts.map((part) =>
          meta.tokens[part.key] > 0 ? <span key={part.key} className={`chat-meter-part chat-meter-part--${part.key}`} style={{ width: `${Math.min(100, (meta.tokens[part.key] / budget) * 100)}%` }} /> : null,
        )}
      </div>
      <span className="chat-meter-text">
        <span data-testid="chat-meter-total">{format(total)}</span> / <span data-testid="chat-meter-budget">{format(budget)}</span> tokens
        {meta.counter.exact ? '' : ' (estimated)'}
      </span>
    </div>
  )
}
