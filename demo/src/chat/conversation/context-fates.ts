import type { DropReason, ProjectionMeta, Reduction } from '@threadlens/core'

/** What the next call does with one entry. */
export type ContextFate =
  | { readonly state: 'included' }
  | { readonly state: 'reduced'; readonly how: Reduction }
  | { readonly state: 'summary' }
  | { readonly state: 'summarized'; readonly bySeq: number }
  | { readonly state: 'dropped'; readonly reason: DropReason }
  /** Newer than the projection (it is being recomputed). */
  | { readonly state: 'new' }

const included: ContextFate = { state: 'included' }
const fresh: ContextFate = { state: 'new' }

export const dropReasonText: Readonly<Record<DropReason, string>> = {
  reset: 'before a reset',
  kind: 'kind not sent',
  applied: 'applied, not sent',
  superseded: 'older summary',
  window: 'outside the turn window',
  'cache-window': 'before the cache-friendly window',
  isolated: 'older tool trace',
  budget: 'over the token budget',
  unresolved: 'unanswered tool call',
  orphan: 'result without its call',
}

/** Looks up the fate of any seq in a projection's meta (each lookup O(log ranges)). */
export function contextFates(meta: ProjectionMeta): (seq: number) => ContextFate {
  const includedSeqs = new Set(meta.includedSeqs)
  const reduced = new Map(meta.reduced.map((item) => [item.seq, item.how]))
  const ranges = meta.dropped
  return (seq) => {
    if (seq >= meta.firstSeq + meta.entryCount) return fresh
    const how = reduced.get(seq)
    if (how !== undefined) return { state: 'reduced', how }
    if (meta.summary !== undefined && seq === meta.summary.seq) return { state: 'summary' }
    if (includedSeqs.has(seq)) return included
    let low = 0
    let high = ranges.length - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      const range = ranges[middle] as (typeof ranges)[number]
      if (seq < range.fromSeq) high = middle - 1
      else if (seq > range.toSeq) low = middle + 1
      else return { state: 'dropped', reason: range.reason }
    }
    if (meta.summary !== undefined && seq >= meta.summary.fromSeq && seq <= meta.summary.toSeq) return { state: 'summarized', bySeq: meta.summary.seq }
    return included
  }
}

/** Short text for a fate badge. */
export function fateLabel(fate: ContextFate): string {
  switch (fate.state) {
    case 'included':
      return 'in context'
    case 'reduced':
      return `in context, ${fate.how}`
    case 'summary':
      return 'summary in use'
    case 'summarized':
      return `summarized by #${fate.bySeq}`
    case 'dropped':
      return `not sent: ${dropReasonText[fate.reason]}`
    case 'new':
      return 'new'
  }
}
