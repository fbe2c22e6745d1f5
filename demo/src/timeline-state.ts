import type { DropReason, Entry, ProjectionMeta } from '@threadlens/core'

export type TimelineState = 'included' | 'dropped' | 'summarized'

export interface TimelineRow {
  readonly entry: Entry
  readonly state: TimelineState
  /** Why it is dropped, or what stands in for it. */
  readonly detail: string
  readonly pinned: boolean
  /** This entry is the summary checkpoint the projection uses. */
  readonly summaryInUse: boolean
}

const reasonText: Record<DropReason, string> = {
  reset: 'before a reset',
  kind: 'kind not projected',
  applied: 'applied, never sent',
  superseded: 'older summary, superseded',
  window: 'outside the turn/message window',
  'cache-window': 'cut early to keep the cached prefix stable',
  isolated: 'older tool traffic, only its outcome kept',
  budget: 'over the token budget',
  unresolved: 'tool call without a result',
  orphan: 'result without its call',
}

/** Every entry of the thread with what the projection did to it, derived from `meta` alone. */
export function timelineRows(entries: readonly Entry[], meta: ProjectionMeta): TimelineRow[] {
  const included = new Set(meta.includedSeqs)
  const pinned = new Set(meta.pinnedSeqs)
  const summary = meta.summaryUsed ? meta.summary : undefined
  return entries.map((entry) => {
    const isPinned = pinned.has(entry.seq)
    const summaryInUse = summary !== undefined && entry.seq === summary.seq
    if (included.has(entry.seq) || summaryInUse) {
      return { entry, state: 'included', detail: summaryInUse ? 'summary in use' : 'in context', pinned: isPinned, summaryInUse }
    }
    const range = meta.dropped.find((dropped) => dropped.fromSeq <= entry.seq && entry.seq <= dropped.toSeq)
    if (range !== undefined) {
      return { entry, state: 'dropped', detail: reasonText[range.reason], pinned: isPinned, summaryInUse }
    }
    if (summary !== undefined && summary.fromSeq <= entry.seq && entry.seq <= summary.toSeq) {
      return { entry, state: 'summarized', detail: `covered by summary #${summary.seq}`, pinned: isPinned, summaryInUse }
    }
    return { entry, state: 'dropped', detail: 'not projected', pinned: isPinned, summaryInUse }
  })
}
