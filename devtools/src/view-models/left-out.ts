import type { DropReason, Entry, ProjectionMeta, Reduction, TokenCounter } from '@threadlens/core'
import { dropReasonTexts, reductionRules } from '@threadlens/core/views'
import { formatNumber } from './meter-parts'

/** Why entries are not sent as written: a drop reason, covered by the summary in use, or sent shortened. */
export type LeftOutReason = DropReason | 'summarized' | Reduction

export interface SeqRange {
  readonly fromSeq: number
  readonly toSeq: number
}

export interface LeftOutGroup {
  readonly reason: LeftOutReason
  /** `budget`, `summarized by #12`, `masked`, … */
  readonly label: string
  /** The rule behind it, in words. */
  readonly rule: string
  /** Whether the entries are absent (dropped, summarized) or present in a shorter form (reduced). */
  readonly sent: 'no' | 'shortened'
  /** Ascending, merged where contiguous. */
  readonly ranges: readonly SeqRange[]
  readonly count: number
  /** Tokens the entries hold as written (what leaving them out or shortening them saved at most); `undefined` without a counter. */
  readonly tokens: number | undefined
}

/** Biggest savers first would shuffle between calls; this order puts what a user asks about first. */
export const reasonOrder: readonly LeftOutReason[] = [
  'budget',
  'window',
  'cache-window',
  'summarized',
  'superseded',
  'unneeded',
  'isolated',
  'masked',
  'pruned',
  'deduped',
  'kind',
  'unresolved',
  'orphan',
  'applied',
  'reset',
]

function pushSeq(ranges: SeqRange[], seq: number): void {
  const last = ranges[ranges.length - 1]
  if (last !== undefined && last.toSeq === seq - 1) ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq: seq }
  else ranges.push({ fromSeq: seq, toSeq: seq })
}

function pushRange(ranges: SeqRange[], range: SeqRange): void {
  const last = ranges[ranges.length - 1]
  if (last !== undefined && last.toSeq === range.fromSeq - 1) ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq: range.toSeq }
  else ranges.push(range)
}

export interface LeftOutOptions {
  /** The thread's entries by seq (to count tokens); without it, groups carry no tokens. */
  readonly entryAt?: (seq: number) => Entry | undefined
  readonly counter?: TokenCounter
}

/**
 * Every entry the projection did not send as written, grouped by why: each drop reason from
 * `meta.dropped`, the entries the summary in use covers, and the results sent masked, pruned or
 * deduped. Ranges, counts and (with a counter) tokens per group. Pure; reads `meta` only.
 */
export function leftOut(meta: ProjectionMeta, options: LeftOutOptions = {}): LeftOutGroup[] {
  const ranges = new Map<LeftOutReason, SeqRange[]>()
  const rangesOf = (reason: LeftOutReason): SeqRange[] => {
    let list = ranges.get(reason)
    if (list === undefined) ranges.set(reason, (list = []))
    return list
  }
  for (const range of meta.dropped) pushRange(rangesOf(range.reason), { fromSeq: range.fromSeq, toSeq: range.toSeq })
  if (meta.summary !== undefined) {
    // Covered entries not present raw (pinned and recalled ones in the range are sent as well).
    const included = new Set([...meta.includedSeqs, ...(meta.recall?.seqs ?? [])])
    const list = rangesOf('summarized')
    const { fromSeq, toSeq } = meta.summary
    let start: number | undefined
    for (let seq = fromSeq; seq <= toSeq + 1; seq++) {
      const covered = seq <= toSeq && !included.has(seq)
      if (covered && start === undefined) start = seq
      if (!covered && start !== undefined) {
        pushRange(list, { fromSeq: start, toSeq: seq - 1 })
        start = undefined
      }
    }
  }
  for (const item of meta.reduced) pushSeq(rangesOf(item.how), item.seq)
  const { entryAt, counter } = options
  const groups: LeftOutGroup[] = []
  for (const reason of reasonOrder) {
    const list = ranges.get(reason)
    if (list === undefined || list.length === 0) continue
    let count = 0
    let tokens: number | undefined = entryAt === undefined || counter === undefined ? undefined : 0
    for (const range of list) {
      count += range.toSeq - range.fromSeq + 1
      if (tokens === undefined || entryAt === undefined || counter === undefined) continue
      for (let seq = range.fromSeq; seq <= range.toSeq; seq++) {
        const entry = entryAt(seq)
        if (entry !== undefined) tokens += counter.countEntry(entry)
      }
    }
    const reduced = reason === 'masked' || reason === 'pruned' || reason === 'deduped'
    groups.push({
      reason,
      label: reason === 'summarized' ? `summarized by #${meta.summary?.seq ?? '?'}` : reason,
      rule:
        reason === 'summarized'
          ? `covered by the summary checkpoint #${meta.summary?.seq ?? '?'} sent in their place`
          : reduced
            ? reductionRules[reason]
            : dropReasonTexts[reason].rule,
      sent: reduced ? 'shortened' : 'no',
      ranges: list,
      count,
      tokens,
    })
  }
  return groups
}

export interface LeftOutTally {
  readonly count: number
  /** `undefined` when any group has no token count. */
  readonly tokens: number | undefined
}

/** What a list of left-out groups adds up to: all of them, the ones not sent, the ones sent shortened. */
export interface LeftOutTotals {
  readonly all: LeftOutTally
  readonly absent: LeftOutTally
  readonly shortened: LeftOutTally
}

function tally(groups: readonly LeftOutGroup[]): LeftOutTally {
  let count = 0
  let tokens: number | undefined = 0
  for (const group of groups) {
    count += group.count
    tokens = tokens === undefined || group.tokens === undefined ? undefined : tokens + group.tokens
  }
  return { count, tokens }
}

export function leftOutTotals(groups: readonly LeftOutGroup[]): LeftOutTotals {
  return {
    all: tally(groups),
    absent: tally(groups.filter((group) => group.sent === 'no')),
    shortened: tally(groups.filter((group) => group.sent === 'shortened')),
  }
}

const entries = (count: number) => `${formatNumber(count)} ${count === 1 ? 'entry' : 'entries'}`
const tokensOf = (tokens: number | undefined) => (tokens === undefined ? '' : ` (${formatNumber(tokens)} tokens as written)`)

/**
 * The heading over the groups: it counts every group listed under it (entries and tokens), and
 * when some are not sent and some are sent shortened, says how many of each.
 */
export function leftOutHeading(groups: readonly LeftOutGroup[]): string {
  const { all, absent, shortened } = leftOutTotals(groups)
  if (all.count === 0) return 'Nothing left out: every entry of the thread is sent as written.'
  if (shortened.count === 0) return `Left out: ${entries(all.count)}${tokensOf(all.tokens)}`
  if (absent.count === 0) return `Sent shortened: ${entries(all.count)}${tokensOf(all.tokens)}`
  return `Left out or shortened: ${entries(all.count)}${tokensOf(all.tokens)}: ${formatNumber(absent.count)} not sent, ${formatNumber(shortened.count)} sent shortened`
}

/**
 * The badge colour of a reason: red for history the model lost, amber for history it gets in another
 * form (a summary, a shortened result), plain for bookkeeping (a context op applied, entries before a
 * reset or of a kind the policy leaves out, an older summary).
 */
export function reasonBadgeClass(reason: LeftOutReason): '' | 'tl-warn' | 'tl-danger' {
  if (reason === 'applied' || reason === 'reset' || reason === 'kind' || reason === 'superseded' || reason === 'unneeded') return ''
  if (reason === 'summarized' || reason === 'masked' || reason === 'pruned' || reason === 'deduped') return 'tl-warn'
  return 'tl-danger'
}

/** `#4` or `#0–#716`. */
export function rangeText(range: SeqRange): string {
  return range.fromSeq === range.toSeq ? `#${range.fromSeq}` : `#${range.fromSeq}–#${range.toSeq}`
}
