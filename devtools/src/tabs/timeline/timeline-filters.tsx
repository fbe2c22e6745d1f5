import { type EntryKind } from '@threadlens/core'
import { entryKinds } from '@threadlens/core/internal'
import { type ReactNode } from 'react'
import { type FateFilter, type FateFilterOption } from '../../view-models/fate-filter'

interface TimelineFiltersProps {
  readonly kinds: ReadonlySet<EntryKind>
  onKinds(next: ReadonlySet<EntryKind>): void
  readonly fate: FateFilter
  onFate(next: FateFilter): void
  readonly fateOptions: readonly FateFilterOption[]
  readonly text: string
  onText(next: string): void
  /** The count line that ends the row. */
  readonly children: ReactNode
}

/** The timeline's filter row: a toggle per entry kind, the fate choice and the text search. */
export function TimelineFilters({ kinds, onKinds, fate, onFate, fateOptions, text, onText, children }: TimelineFiltersProps) {
  const toggleKind = (kind: EntryKind) => {
    const next = new Set(kinds)
    if (next.has(kind)) next.delete(kind)
    else next.add(kind)
    onKinds(next)
  }
  return (
    <div className="tl-row" data-testid="timeline-filters">
      {entryKinds.map((kind) => (
        <button
          key={kind}
          type="button"
          className="tl-button"
          aria-pressed={kinds.has(kind)}
          data-testid={`filter-${kind}`}
          onClick={() => toggleKind(kind)}
        >
          {kind}
        </button>
      ))}
      <label className="tl-row" style={{ gap: 4 }}>
        <span className="tl-muted">fate</span>
        <select className="tl-select" data-testid="timeline-fate" value={fate} onChange={(event) => onFate(event.target.value as FateFilter)}>
          {fateOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          {fateOptions.some((option) => option.value === fate) ? null : <option value={fate}>{fate}</option>}
        </select>
      </label>
      <input
        className="tl-input"
        type="search"
        placeholder="filter text or refs"
        aria-label="filter text"
        data-testid="timeline-search"
        value={text}
        onChange={(event) => onText(event.target.value)}
      />
      {children}
    </div>
  )
}
