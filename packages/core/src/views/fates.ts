import type { DropReason, ProjectionMeta, Reduction } from '../project/types'

/**
 * What a projection did with one thread entry, read from its `meta` alone: sent (maybe shortened),
 * sent as the summary in use, covered by that summary, recalled as relevant to the newest user
 * message, left out (and why), or `unprojected`:
 * newer than the projection (appended since; the next projection will say).
 */
export type EntryFate =
  | { readonly state: 'included'; readonly reduced: Reduction | undefined }
  | { readonly state: 'summary'; readonly covers: readonly [number, number] }
  | { readonly state: 'summarized'; readonly summarySeq: number }
  /** sent in the recall block; `hit` is set for the entry that matched (its neighbours and tool unit come with it) */
  | { readonly state: 'recalled'; readonly hit: { readonly score: number; readonly terms: readonly string[] } | undefined }
  | { readonly state: 'dropped'; readonly reason: DropReason }
  | { readonly state: 'unprojected' }

export type FateState = EntryFate['state']

/** Each drop reason in a few plain words (a chat's badge) and as the rule that decided it (a devtools row). */
export const dropReasonTexts: Readonly<Record<DropReason, { readonly text: string; readonly rule: string }>> = {
  reset: { text: 'before a reset', rule: 'before the newest reset op: hidden from every projection' },
  kind: { text: 'kind not sent', rule: 'its kind is not in policy.includeKinds' },
  applied: { text: 'applied, never sent', rule: 'a context op: applied to the projection, never sent' },
  superseded: { text: 'older summary', rule: 'an older summary: a newer checkpoint replaces it' },
  unneeded: { text: 'summary not needed', rule: 'a summary whose entries all fit: they are sent as they are instead' },
  window: { text: 'outside the turn window', rule: 'outside maxTurns / maxMessages' },
  'cache-window': { text: 'before the cache-friendly window', rule: 'cut early by cacheFriendly so the cached prompt prefix stays stable' },
  isolated: { text: 'older tool trace', rule: "older request's tool traffic: toolTrace 'boundary' keeps only its outcome" },
  budget: { text: 'over the token budget', rule: 'did not fit the token budget (newest first, contiguous)' },
  unresolved: { text: 'unanswered tool call', rule: "a tool call with no result, under unresolvedToolCalls: 'drop'" },
  orphan: { text: 'result without its call', rule: 'a tool result whose call is not in the projected part of the thread' },
}

/** Each way a sent tool result was shortened, as the rule that did it. */
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
const unprojected: EntryFate = { state: 'unprojected' }
const cache = new WeakMap<ProjectionMeta, FateIndex>()

/** Looks up any entry's fate in O(log ranges), from `meta` alone. Memoised per meta. */
export function entryFates(meta: ProjectionMeta): FateIndex {
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
  const recalled = new Map<number, EntryFate>()
  const hits = new Map((meta.recall?.hits ?? []).map((hit) => [hit.seq, hit]))
  for (const seq of meta.recall?.seqs ?? []) {
    const hit = hits.get(seq)
    recalled.set(seq, { state: 'recalled', hit: hit === undefined ? undefined : { score: hit.score, terms: hit.terms } })
  }
  const ranges = meta.dropped
  const lastSeq = meta.firstSeq + meta.entryCount - 1
  const index: FateIndex = {
    pinned: new Set(meta.pinnedSeqs),
    unresolved: new Set(meta.unresolvedToolCalls.map((call) => call.seq)),
    fateOf(seq) {
      if (seq > lastSeq) return unprojected
      if (summary !== undefined && seq === summary.seq) return summaryFate as EntryFate
      const shortened = reduced.get(seq)
      if (shortened !== undefined) return shortened
      if (includedSeqs.has(seq)) return included
      const recalledFate = recalled.get(seq)
      if (recalledFate !== undefined) return recalledFate
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
      // meta accounts for every entry it saw; an older one it did not see (a windowed read stops
      // where no projection can reach) was not sent either.
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
    case 'recalled':
      return b.state === 'recalled' && a.hit?.score === b.hit?.score && a.hit?.terms.join(' ') === b.hit?.terms.join(' ')
    case 'dropped':
      return b.state === 'dropped' && a.reason === b.reason
    case 'unprojected':
      return b.state === 'unprojected'
  }
}

/**
 * A fate in words: `label`, a compact tag (`included`, `masked`, `summarized (#12)`, `budget`);
 * `text`, a few plain words for a reader (`in context`, `not sent: over the token budget`);
 * `rule`, the rule that decided it.
 */
export function describeFate(fate: EntryFate): { readonly label: string; readonly text: string; readonly rule: string } {
  switch (fate.state) {
    case 'included':
      return fate.reduced === undefined
        ? { label: 'included', text: 'in context', rule: 'sent to the model' }
        : { label: fate.reduced, text: `in context, ${fate.reduced}`, rule: reductionRules[fate.reduced] }
    case 'summary':
      return { label: 'summary in use', text: 'summary in use', rule: `sent as the summary segment, replacing #${fate.covers[0]}–#${fate.covers[1]}` }
    case 'summarized':
      return { label: `summarized (#${fate.summarySeq})`, text: `summarized by #${fate.summarySeq}`, rule: `covered by summary #${fate.summarySeq}` }
    case 'recalled':
      return fate.hit === undefined
        ? {
            label: 'recalled',
            text: 'recalled with a match next to it',
            rule: 'sent in the recall block beside an older entry that matched the newest user message',
          }
        : {
            label: 'recalled',
            text: `recalled: matched ${fate.hit.terms.join(', ')}`,
            rule: `sent in the recall block: it matched ${fate.hit.terms.map((term) => `"${term}"`).join(', ')} of the newest user message (score ${fate.hit.score.toFixed(2)})`,
          }
    case 'dropped':
      return { label: fate.reason, text: `not sent: ${dropReasonTexts[fate.reason].text}`, rule: dropReasonTexts[fate.reason].rule }
    case 'unprojected':
      return { label: 'new', text: 'new', rule: 'newer than the projection shown: it is being recomputed' }
  }
}
