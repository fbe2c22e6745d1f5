import type { DropReason, ProjectionMeta } from '@threadlens/core'
import { dropReasonTexts, entryFates, type EntryFate } from '@threadlens/core/views'

/** What the timeline can show: every entry, a broad fate, or one drop reason (`dropped:budget`). */
export type FateFilter = 'all' | 'sent' | 'as-written' | 'shortened' | 'recalled' | 'left-out' | 'summarized' | `dropped:${DropReason}`

/** Every fate filter there is, whatever a projection holds: what a remembered filter may be. */
export const fateFilters: readonly FateFilter[] = [
  'all',
  'sent',
  'as-written',
  'shortened',
  'recalled',
  'left-out',
  'summarized',
  ...(Object.keys(dropReasonTexts) as DropReason[]).map((reason): FateFilter => `dropped:${reason}`),
]

export interface FateFilterOption {
  readonly value: FateFilter
  readonly label: string
}

/** The filters worth offering for one projection: the broad ones (recalled when it recalled some), then each drop reason it has. */
export function fateFilterOptions(meta: ProjectionMeta): FateFilterOption[] {
  const options: FateFilterOption[] = [
    { value: 'all', label: 'every fate' },
    { value: 'sent', label: 'sent (whole, shortened or recalled)' },
    { value: 'as-written', label: 'sent as written' },
    { value: 'shortened', label: 'sent shortened (masked, pruned, deduped)' },
    ...((meta.recall?.seqs.length ?? 0) > 0 ? [{ value: 'recalled', label: 'recalled (older entries brought back)' } as const] : []),
    { value: 'left-out', label: 'left out (any reason)' },
    { value: 'summarized', label: 'summarized' },
  ]
  const reasons = [...new Set(meta.dropped.map((range) => range.reason))]
  for (const reason of reasons) options.push({ value: `dropped:${reason}`, label: `left out: ${reason}` })
  return options
}

export function fateMatches(fate: EntryFate, filter: FateFilter): boolean {
  switch (filter) {
    case 'all':
      return true
    case 'sent':
      return fate.state === 'included' || fate.state === 'summary' || fate.state === 'recalled'
    case 'as-written':
      return (fate.state === 'included' && fate.reduced === undefined) || fate.state === 'summary'
    case 'shortened':
      return fate.state === 'included' && fate.reduced !== undefined
    case 'recalled':
      return fate.state === 'recalled'
    case 'left-out':
      return fate.state === 'dropped' || fate.state === 'summarized'
    case 'summarized':
      return fate.state === 'summarized'
    default:
      return fate.state === 'dropped' && `dropped:${fate.reason}` === filter
  }
}

/** Whether an entry of this projection passes the filter. */
export function seqMatches(meta: ProjectionMeta, seq: number, filter: FateFilter): boolean {
  return filter === 'all' || fateMatches(entryFates(meta).fateOf(seq), filter)
}
