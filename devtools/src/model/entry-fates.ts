import type { DropReason, ProjectionMeta, Reduction } from '@threadlens/core'

/** What the projection did with one thread entry. */
export type EntryFate =
  | { readonly state: 'included'; readonly reduced: Reduction | undefined }
  | { readonly state: 'summary'; readonly covers: readonly [number, number] }
  | { readonly state: 'summarized'; readonly summarySeq: number }
  | { readonly state: 'dropped'; readonly reason: DropReason }

export type FateState = EntryFate['state']

/** The rule behind each drop reason, in words (shown beside greyed entries). */
export const dropRules: Readonly<Record<DropReason, string>> = {
  reset: 'before the newest reset op: hidden from every projection',
  kind: 'its kind is not in policy.includeKinds',
  applied: 'a context op: applied to the projection, never sent',
  superseded: 'an older summary: a newer checkpoint replaces it',
  window: 'outside maxTurns / maxMessages',
  'cache-window': 'cut early by cacheFriendly so the cached prompt prefix stays stable',
  isolated: "older request's tool traffic: toolTrace 'boundary' keeps only its outcome",
  budget: 'did not fit the token budget (newest first, contiguous)',
  unresolved: "a tool call with no result, under unresolvedToolCalls: 'drop'",
  orphan: 'a tool result whose call is not in the projected part of the thread',
}

export const reductionRules: Readonly<Record<Reduction, string>> = {
  masked: "sent as a placeholder (toolTrace 'masked'): name, call id and size kept",
  deduped: 'sent as a reference to a newer identical result (dedupeToolResults)',
  pruned: 'sent cut to head and tail (pruneToolOutputsOverTokens)',
}

export interface FateIndex {
  fateOf(seq: number): EntryFate
  readonly pinned: ReadonlySet<number>
  readonly unresolved: ReadonlySet<number>
}

const included: EntryFate = { state: 'included', reduced: undefined }
const cache = new WeakMap<ProjectionMeta, FateIndex>()

/** Looks up any entry's fate in O(log ranges), from `meta` alone. Memoised per meta. */
export function fateIndex(meta: ProjectionMeta): FateIndex {
  const cached = cache.get(meta)
  if (cached !== undefined) return cached
  const includedSeqs = new Set(meta.includedSeqs)
  const reduced = new Map<number, EntryFate>()
  for (const item of meta.reduced) reduced.set(item.seq, { state: 'included', reduced: item.how })
  const droppedFates = new Map<DropReason, EntryFate>()
  const droppedFate = (reason: DropReason): EntryFate => {
    let fate = droppedFates.get(reason)
    if (fate === undefined) droppedFates.set(reason, (fate = { state: 'dropped', reason }))
    return fate
  }
  const summary = meta.summary
  const summaryFate: EntryFate | undefined = summary === undefined ? undefined : { state: 'summary', covers: [summary.fromSeq, summary.toSeq] }
  const summarizedFate: EntryFate | undefined = summary === undefined ? undefined : { state: 'summarized', summarySeq: summary.seq }
  const ranges = meta.dropped
  const index: FateIndex = {
    pinned: new Set(meta.pinnedSeqs),
    unresolved: new Set(meta.unresolvedToolCalls.map((call) => call.seq)),
    fateOf(seq) {
      if (summary !== undefined && seq === summary.seq) return summaryFate as EntryFate
      const shortened = reduced.get(seq)
      if (shortened !== undefined) return shortened
      if (includedSeqs.has(seq)) return included
      let low = 0
      let high = ranges.length - 1
      while (low <= high) {
        const middle = (low + high) >> 1
        const range = ranges[middle] as (typeof ranges)[number]
        if (seq < range.fromSeq) high = middle - 1
        else if (seq > range.toSeq) low = middle + 1
        else return droppedFate(range.reason)
      }
      if (summary !== undefined && seq >= summary.fromSeq && seq <= summary.toSeq) return summarizedFate as EntryFate
      // meta accounts for every entry; this is only reached for seqs outside the projected thread.
      return droppedFate('budget')
    },
  }
  cache.set(meta, index)
  return index
}

/** Two fates say the same (fates are rebuilt with every projection, so compare by value). */
export function sameFate(a: EntryFate, b: EntryFate): boolean {
  if (a === b) return true
  switch (a.state) {
    case 'included':
      return b.state === 'included' && a.reduced === b.reduced
    case 'summary':
      return b.state === 'summary' && a.covers[0] === b.covers[0] && a.covers[1] === b.covers[1]
    case 'summarized':
      return b.state === 'summarized' && a.summarySeq === b.summarySeq
    case 'dropped':
      return b.state === 'dropped' && a.reason === b.reason
  }
}

/** The fate as a short label and the rule that decided it. */
export function describeFate(fate: EntryFate): { label: string; rule: string } {
  switch (fate.state) {
    case 'included':
      return fate.reduced === undefined
        ? { label: 'included', rule: 'sent to the model' }
        : { label: fate.reduced, rule: reductionRules[fate.reduced] }
    case 'summary':
      return { label: 'summary in use', rule: `sent as the summary segment, replacing #${fate.covers[0]}–#${fate.covers[1]}` }
    case 'summarized':
      return { label: `summarized (#${fate.summarySeq})`, rule: `covered by summary #${fate.summarySeq}` }
    case 'dropped':
      return { label: fate.reason, rule: dropRules[fate.reason] }
  }
}
