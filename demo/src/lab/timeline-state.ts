import type { Entry, ProjectionMeta } from '@threadlens/core'
import { describeFate, entryFates } from '@threadlens/core/views'

export type TimelineState = 'included' | 'dropped' | 'summarized'

export interface TimelineRow {
  readonly entry: Entry
  readonly state: TimelineState
  /** What the projection did with it, in core's words (`describeFate`). */
  readonly detail: string
  readonly pinned: boolean
  /** This entry is the summary checkpoint the projection uses. */
  readonly summaryInUse: boolean
}

/** Every entry of the thread with what the projection did to it, derived from `meta` alone. */
export function timelineRows(entries: readonly Entry[], meta: ProjectionMeta): TimelineRow[] {
  const fates = entryFates(meta)
  return entries.map((entry) => {
    const fate = fates.fateOf(entry.seq)
    const state: TimelineState = fate.state === 'dropped' ? 'dropped' : fate.state === 'summarized' ? 'summarized' : 'included'
    return { entry, state, detail: describeFate(fate).text, pinned: fates.pinned.has(entry.seq), summaryInUse: fate.state === 'summary' }
  })
}
