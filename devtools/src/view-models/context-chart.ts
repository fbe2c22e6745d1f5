import type { ContextPolicy, Entry } from '@threadlens/core'
import { CallParts, type CallAttemptStatus } from '@threadlens/core/calls'
import { inputBudget } from '@threadlens/core/internal'
import { rowFigures, type TraceRow } from './call-trace-rows'
import { formatNumber } from './meter-parts'

/** One request of the thread, in the order sent, as the Calls tab's context chart draws it. */
export interface ContextPoint {
  /** The trace row's key: selecting the point selects that row. */
  readonly key: string
  /** 0 for the first request sent. */
  readonly index: number
  readonly callId: string
  /** 1 for the first try of the call. */
  readonly attempt: number
  readonly status: CallAttemptStatus
  /** Prompt tokens as counted here when it was sent (the projection's total). */
  readonly sent: number | undefined
  /** Prompt tokens the provider reported, cached ones included. */
  readonly reported: number | undefined
  /** Prompt tokens the provider read from its cache. */
  readonly cached: number | undefined
  /** The input budget of the policy the request was projected with (`maxInputTokens − reserveOutputTokens`). */
  readonly budget: number | undefined
  /** Seqs of the summary entries written since the request before it (the newest of them is what this request could use). */
  readonly summaries: readonly number[]
  /** Older entries the recall block brought back into this request (as its record says), or `undefined` for none. */
  readonly recalled: number | undefined
}

/** A token figure as drawn: a count, or `undefined` for anything that is not one (missing, negative, not finite). */
function tokens(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/** The entries a request projected from: those with seq below this. */
function basisOf(row: TraceRow): number {
  if (row.kind === 'attempt') return row.attempt.record.basisSeq
  return row.call.record?.stored?.basisSeq ?? row.call.record?.basisSeq ?? row.call.firstSeq
}

function policyOf(row: TraceRow, parts: CallParts): ContextPolicy | undefined {
  if (row.kind === 'call' && row.call.record?.policy !== undefined) return row.call.record.policy
  return row.record === undefined ? undefined : parts.policy(row.record)
}

/**
 * Every row of the trace as one point, in the order sent: its prompt tokens (counted, reported,
 * read from cache), its policy's input budget, and the summaries written just before it (each
 * summary entry below the newest request's basis is on exactly one point).
 */
export function contextSeries(rows: readonly TraceRow[], entries: readonly Entry[]): ContextPoint[] {
  const parts = new CallParts().addFrom(entries)
  for (const row of rows) if (row.kind === 'attempt') parts.add(row.attempt.record)
  const summaries = entries.filter((entry) => entry.kind === 'summary').map((entry) => entry.seq)
  summaries.sort((a, b) => a - b)
  let nextSummary = 0
  let reached = 0
  return rows.map((row, index) => {
    const figures = rowFigures(row)
    const policy = policyOf(row, parts)
    // Summaries written since the furthest request so far: a request sent later over an older basis (an attempt placed by its time) takes none twice.
    reached = Math.max(reached, basisOf(row))
    const written: number[] = []
    while (nextSummary < summaries.length && (summaries[nextSummary] as number) < reached) written.push(summaries[nextSummary++] as number)
    return {
      key: row.key,
      index,
      callId: row.kind === 'call' ? row.call.callId : row.attempt.callId,
      attempt: row.kind === 'attempt' ? row.attempt.attempt : (figures?.attempts ?? 1),
      status: row.status,
      sent: tokens(figures?.localInputTokens),
      reported: tokens(figures?.inputTokens),
      cached: tokens(figures?.cachedInputTokens),
      budget: policy === undefined ? undefined : tokens(inputBudget(policy)),
      summaries: written,
      recalled: recalledBy(row),
    }
  })
}

/** What the row's stored record says recall brought back (records written before it was kept say nothing). */
function recalledBy(row: TraceRow): number | undefined {
  const stored = row.kind === 'attempt' ? row.attempt.record : row.call.record?.stored
  const recalled = stored?.recalledEntries
  return typeof recalled === 'number' && Number.isInteger(recalled) && recalled > 0 ? recalled : undefined
}

/** Whether a point has anything to draw. */
export function hasFigures(point: ContextPoint): boolean {
  return point.sent !== undefined || point.reported !== undefined || point.cached !== undefined || point.budget !== undefined
}

/** Consecutive points drawn as one: each figure at its peak, the budget at its lowest (how close the requests came to it). */
export interface ChartBucket {
  /** Index of the bucket's first and last point. */
  readonly first: number
  readonly last: number
  /** The point that stands for the bucket when it is selected: the one that sent the most. */
  readonly key: string
  readonly sent: number | undefined
  readonly reported: number | undefined
  readonly cached: number | undefined
  readonly budget: number | undefined
  /** The worst status in the bucket (failed, then aborted, then retried, then ok). */
  readonly status: CallAttemptStatus
  /** Points in the bucket that were not answered. */
  readonly unanswered: number
  readonly summaries: readonly number[]
  /** Entries recall brought back, over the bucket's requests. */
  readonly recalled: number
}

const severity: Readonly<Record<CallAttemptStatus, number>> = { ok: 0, retried: 1, aborted: 2, failed: 3 }

const peak = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.max(a, b))
const lowest = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b))

/**
 * The points in at most `maxBuckets` runs of consecutive calls (one point each when they fit), so
 * that what is drawn stays small however long the thread is.
 */
export function chartBuckets(points: readonly ContextPoint[], maxBuckets: number): ChartBucket[] {
  const size = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(maxBuckets))))
  const buckets: ChartBucket[] = []
  for (let first = 0; first < points.length; first += size) {
    const last = Math.min(points.length, first + size) - 1
    let bucket: { -readonly [K in keyof ChartBucket]: ChartBucket[K] } | undefined
    let most = -1
    for (let index = first; index <= last; index++) {
      const point = points[index] as ContextPoint
      if (bucket === undefined)
        bucket = {
          first,
          last,
          key: point.key,
          sent: undefined,
          reported: undefined,
          cached: undefined,
          budget: undefined,
          status: 'ok',
          unanswered: 0,
          summaries: [],
          recalled: 0,
        }
      const size = point.sent ?? point.reported ?? 0
      if (size > most) {
        most = size
        bucket.key = point.key
      }
      bucket.sent = peak(bucket.sent, point.sent)
      bucket.reported = peak(bucket.reported, point.reported)
      bucket.cached = peak(bucket.cached, point.cached)
      bucket.budget = lowest(bucket.budget, point.budget)
      if (severity[point.status] > severity[bucket.status]) bucket.status = point.status
      if (point.status !== 'ok') bucket.unanswered++
      if (point.summaries.length > 0) bucket.summaries = [...bucket.summaries, ...point.summaries]
      bucket.recalled += point.recalled ?? 0
    }
    if (bucket !== undefined) buckets.push(bucket)
  }
  return buckets
}

/** Round axis steps (1, 2 or 5 × 10ⁿ) from 0 to at least `max`, about `count` of them. */
export function axisTicks(max: number, count: number): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0]
  const raw = max / Math.max(1, count)
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 5, 10].find((factor) => factor * magnitude >= raw) ?? 10) * magnitude
  const ticks: number[] = []
  for (let tick = 0; ticks.length === 0 || (ticks[ticks.length - 1] as number) < max; tick += step) ticks.push(tick)
  return ticks
}

/** `950`, `12k`, `1.2M`: an axis label. */
export function shortTokens(value: number): string {
  if (value >= 1_000_000) return `${Number((value / 1_000_000).toFixed(1))}M`
  if (value >= 1_000) return `${Number((value / 1_000).toFixed(value >= 10_000 ? 0 : 1))}k`
  return String(Math.round(value))
}

/** Which calls get a label on the x axis (1-based call numbers): the first, the last, and about `count` in all. */
export function callTicks(calls: number, count: number): number[] {
  if (calls <= 0) return []
  const step = Math.max(1, Math.ceil(calls / Math.max(1, count - 1)))
  const ticks: number[] = []
  for (let call = 1; call < calls; call += step) ticks.push(call)
  if (ticks.length > 1 && calls - (ticks[ticks.length - 1] as number) < step / 2) ticks.pop()
  ticks.push(calls)
  return ticks
}

const figure = (value: number | undefined) => (value === undefined ? 'not recorded' : `${formatNumber(value)} tokens`)

/** One request's figures in words: a point's tooltip and accessible name. */
export function pointWords(point: ContextPoint): string {
  const parts = [
    `request ${point.index + 1}, call ${point.callId}${point.attempt > 1 ? ` try ${point.attempt}` : ''}${point.status === 'ok' ? '' : ` (${point.status})`}`,
    `sent ${figure(point.sent)}`,
  ]
  if (point.reported !== undefined) parts.push(`provider counted ${formatNumber(point.reported)}`)
  if (point.cached !== undefined) parts.push(`${formatNumber(point.cached)} read from cache`)
  parts.push(`budget ${figure(point.budget)}`)
  if (point.summaries.length > 0) parts.push(`summary written before it (entry ${point.summaries.map((seq) => `#${seq}`).join(', ')})`)
  if (point.recalled !== undefined) parts.push(`recall brought back ${formatNumber(point.recalled)} older entr${point.recalled === 1 ? 'y' : 'ies'}`)
  return parts.join(' · ')
}

/** The whole chart in one sentence, for screen readers. */
export function chartSummary(points: readonly ContextPoint[]): string {
  const sent = points.map((point) => point.sent).filter((value): value is number => value !== undefined)
  const budgets = points.map((point) => point.budget).filter((value): value is number => value !== undefined)
  const summaries = points.reduce((total, point) => total + point.summaries.length, 0)
  const unanswered = points.filter((point) => point.status !== 'ok').length
  const words = [`Prompt size of ${formatNumber(points.length)} request${points.length === 1 ? '' : 's'}, oldest first`]
  if (sent.length > 0) {
    const largest = sent.reduce((a, b) => Math.max(a, b))
    const at = points.find((point) => point.sent === largest) as ContextPoint
    words.push(
      `sent from ${formatNumber(sent.reduce((a, b) => Math.min(a, b)))} to ${formatNumber(largest)} tokens (the most at request ${at.index + 1})`,
    )
  } else words.push('no local token count recorded')
  if (budgets.length > 0) {
    const low = budgets.reduce((a, b) => Math.min(a, b))
    const high = budgets.reduce((a, b) => Math.max(a, b))
    words.push(low === high ? `budget ${formatNumber(low)} tokens` : `budget between ${formatNumber(low)} and ${formatNumber(high)} tokens`)
  }
  if (summaries > 0) words.push(`${summaries} summar${summaries === 1 ? 'y' : 'ies'} written`)
  const recalling = points.filter((point) => point.recalled !== undefined).length
  if (recalling > 0) words.push(`recall brought older entries back into ${recalling} request${recalling === 1 ? '' : 's'}`)
  if (unanswered > 0) words.push(`${unanswered} not answered`)
  return `${words.join('; ')}.`
}

/** A bucket's figures in words: its point's words when it holds one request, else the run's peaks. */
export function bucketWords(bucket: ChartBucket, points: readonly ContextPoint[]): string {
  if (bucket.first === bucket.last) return pointWords(points[bucket.first] as ContextPoint)
  const parts = [
    `requests ${(points[bucket.first] as ContextPoint).index + 1} to ${(points[bucket.last] as ContextPoint).index + 1}`,
    `sent at most ${figure(bucket.sent)}`,
  ]
  if (bucket.reported !== undefined) parts.push(`provider counted at most ${formatNumber(bucket.reported)}`)
  if (bucket.cached !== undefined) parts.push(`at most ${formatNumber(bucket.cached)} read from cache`)
  parts.push(`lowest budget ${figure(bucket.budget)}`)
  if (bucket.unanswered > 0) parts.push(`${bucket.unanswered} not answered`)
  if (bucket.summaries.length > 0) parts.push(`${bucket.summaries.length} summar${bucket.summaries.length === 1 ? 'y' : 'ies'} written`)
  return parts.join(' · ')
}
