import type { Entry } from '../entries/entry'
import { countsLinesApart, MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter'
import { recallLine, startsApart } from './recall-lines'
import type { FixedSegments } from '../project/fixed-segments'
import type { ProjectionContext } from '../project/projection-context'
import type { UnitSelection } from '../project/select-units'
import type { PendingMessage, ProjectInput, RecallHit, RecallMeta, RecallPhase, RecallSkip } from '../project/types'
import { sourceOf } from '../project/projection-context'
import { entryAt, unitOf, unitSeqs, type Unit, type UnitContext } from '../project/units'

/** What recall will look for, decided before the window is walked. */
export interface RecallPlan {
  readonly query: string
  readonly terms: readonly string[]
  /** Tokens held back from the window for recall: `share` of the room left after the fixed segments and checkpoints. */
  readonly reserve: (room: number) => number
  /** Set when recall cannot run at all (its reserve is then 0). */
  readonly skipped: RecallSkip | undefined
}

/** The recall block chosen: its text and tokens, the entries in it and the hits that brought them. */
export interface RecallBlock {
  readonly text: string
  readonly tokens: number
  readonly meta: RecallMeta
  /** Each recalled entry's line and what it costs in the block (the window may take entries back: `withoutEntries`). */
  readonly lines: ReadonlyMap<number, { readonly line: string; readonly tokens: number }>
  /** The seqs each hit brought, in `meta.hits` order. */
  readonly groups: readonly (readonly number[])[]
}

/** Rounds of widening the chosen hits by one unit on each side, at most, while room is left. */
const MAX_WIDENING = 4

/**
 * The text recall searches for: the newest `queryTurns` user messages (pending ones first, then the
 * thread's after the newest reset), oldest first, joined by newlines.
 */
function queryText(context: UnitContext, pending: readonly PendingMessage[], queryTurns: number): string {
  const texts: string[] = []
  for (let position = pending.length - 1; position >= 0 && texts.length < queryTurns; position--) {
    const message = pending[position]
    if (message?.role === 'user') texts.push(message.content)
  }
  const userSeqs = context.index.userSeqs
  for (let position = userSeqs.length - 1; position >= 0 && texts.length < queryTurns; position--) {
    const entry = entryAt(context, userSeqs[position] as number)
    if (entry === undefined || entry.seq < context.visibleFrom) break
    if (entry.kind === 'message') texts.push(entry.payload.content)
  }
  return texts.reverse().join('\n')
}

/**
 * The text `project()` will search for under `policy.recall` (`''` without recall): what a hybrid
 * index must `prepare` (embed) before the projection. Same input as `project()`.
 */
export function recallQuery(input: Pick<ProjectInput, 'thread' | 'policy' | 'pending'>): string {
  const options = input.policy.recall
  if (options === undefined) return ''
  const { entries, index } = sourceOf(input.thread)
  const firstSeq = entries[0]?.seq ?? 0
  const context: UnitContext = { entries, index, firstSeq, visibleFrom: Math.max(firstSeq, index.resetSeq + 1), toolsIncluded: true }
  return queryText(context, input.pending ?? [], options.queryTurns)
}

/** The query (the newest `queryTurns` user messages, pending first) and its terms; `undefined` without `policy.recall`. */
export function planRecall(context: ProjectionContext, fixed: FixedSegments): RecallPlan | undefined {
  const { policy, recall: searcher } = context.input
  const options = policy.recall
  if (options === undefined) return undefined
  const query = queryText(context, fixed.pending, options.queryTurns)
  const terms = searcher === undefined ? [] : [...new Set(searcher.terms(query))].sort()
  const skipped: RecallSkip | undefined = searcher === undefined ? 'no-index' : terms.length === 0 ? 'empty-query' : undefined
  // The share of a room that does not change from call to call (the budget less system prompt, tools,
  // memory and summary), so a cache-friendly window sized on the rest keeps its grid.
  const stableRoom = (room: number): number => room + fixed.mandatoryTokens - fixed.systemTokens - fixed.toolTokens
  const share = (room: number): number => Math.min(options.maxTokens, Math.floor(options.share * Math.max(0, stableRoom(room))))
  return { query, terms, skipped, reserve: (room) => (skipped === undefined ? Math.min(Math.max(0, room), share(room)) : 0) }
}

/** A unit's entries, oldest first, as the block sends them (a model call's texts, calls and results together). */
function unitEntries(unit: Unit, context: ProjectionContext): Entry[] {
  return unitSeqs(unit)
    .sort((a, b) => a - b)
    .map((seq) => entryAt(context, seq))
    .filter((entry): entry is Entry => entry !== undefined)
}

/**
 * Chooses the recall block: hits best first, each with its whole unit and `neighbors` units on each
 * side, among entries older than the window and the newest turn and not sent already, while
 * they fit `room`. Hits that do not fit are passed over (a smaller one may still fit); the number of
 * hits looked at is bounded by `policy.recall.maxHits`.
 */
export function selectRecall(
  context: ProjectionContext,
  fixed: FixedSegments,
  selection: UnitSelection,
  plan: RecallPlan,
  windowLeft: number,
): RecallBlock {
  const options = context.input.policy.recall as NonNullable<typeof context.input.policy.recall>
  const room = Math.min(windowLeft, options.maxTokens)
  const empty = (skipped: RecallSkip): RecallBlock => emptyBlock(plan.terms, room, skipped)
  if (plan.skipped !== undefined) return empty(plan.skipped)
  // Older than the window and than the newest turn (the block goes just before it).
  const before = Math.min(selection.lowWater, fixed.anchor?.seq ?? Number.POSITIVE_INFINITY)
  if (before <= context.visibleFrom) return empty('nothing-older')
  let hits: readonly RecallHit[]
  try {
    hits = (context.input.recall as NonNullable<typeof context.input.recall>).search({
      entries: context.entries,
      query: plan.query,
      from: context.visibleFrom,
      before,
      limit: options.maxHits,
    })
  } catch {
    return empty('search-failed')
  }
  if (hits.length === 0) return empty('no-match')

  const counter = context.input.counter
  const headerTokens = MESSAGE_OVERHEAD_TOKENS + counter.countCached(`${options.header}\n`)
  const chosen = new Map<number, { line: string; tokens: number }>()
  const chosenHits: RecallHit[] = []
  const groups: number[][] = []
  let used = headerTokens
  const units = new Map<string, Unit>()
  /** The lines of a group's entries not chosen yet, and what they cost. */
  const newLines = (group: readonly Entry[]): { lines: [number, { line: string; tokens: number }][]; cost: number } => {
    let cost = 0
    const lines: [number, { line: string; tokens: number }][] = []
    for (const entry of group) {
      if (chosen.has(entry.seq)) continue
      const { line, tokens } = recallLine(counter, entry, options.dates)
      lines.push([entry.seq, { line, tokens }])
      cost += tokens
    }
    return { lines, cost }
  }
  for (const hit of hits) {
    const { lines, cost } = newLines(recallGroup(context, selection, hit.seq, before, options.neighbors, units))
    if (lines.length === 0 || used + cost > room) continue
    for (const [seq, line] of lines) chosen.set(seq, line)
    chosenHits.push(hit)
    groups.push(lines.map(([seq]) => seq))
    used += cost
  }
  // Room left once every hit that fits is in: each chosen hit brings one more unit on each side, best
  // hits first, a round at a time (an answer is often a turn or two from the turn that names it).
  for (let extra = 1; extra <= MAX_WIDENING && chosenHits.length > 0 && used < room; extra++) {
    let grew = false
    chosenHits.forEach((hit, position) => {
      const { lines, cost } = newLines(recallGroup(context, selection, hit.seq, before, options.neighbors + extra, units))
      if (lines.length === 0 || used + cost > room) return
      for (const [seq, line] of lines) chosen.set(seq, line)
      ;(groups[position] as number[]).push(...lines.map(([seq]) => seq))
      used += cost
      grew = true
    })
    if (!grew) break
  }
  if (chosenHits.length === 0) return empty('no-room')
  return renderBlock(context, chosen, chosenHits, groups, plan.terms, room, options.header)
}

/** The entries a hit brings: its unit, and up to `neighbors` units on each side, all older than the window and not sent. */
function recallGroup(
  context: ProjectionContext,
  selection: UnitSelection,
  seq: number,
  before: number,
  neighbors: number,
  units: Map<string, Unit>,
): Entry[] {
  const entry = entryAt(context, seq)
  // Only what the policy sends at all: its kinds, tool traffic only with both tool kinds.
  const allowed = (candidate: Entry): boolean =>
    context.include.has(candidate.kind) && (context.toolsIncluded || (candidate.kind !== 'tool_call' && candidate.kind !== 'tool_result'))
  if (entry === undefined || !allowed(entry)) return []
  const hitUnit = unitOf(context, entry, units)
  if (hitUnit === undefined) return []
  const group: Unit[] = [hitUnit]
  const sendable = (unit: Unit): boolean =>
    unitSeqs(unit).every((member) => member < before && selection.explicit.get(member) !== 'included' && allowed(entryAt(context, member) as Entry))
  if (!sendable(hitUnit)) return []
  for (const direction of [-1, 1]) {
    let edge = direction < 0 ? hitUnit.start : Math.max(...unitSeqs(hitUnit))
    // Bounded: at most 4 entries looked at per neighbour wanted.
    for (let found = 0, looked = 0; found < neighbors && looked < 4 * neighbors + 4; looked++) {
      edge += direction
      if (edge < context.visibleFrom || edge >= before) break
      const next = entryAt(context, edge)
      if (next === undefined || next.kind === 'summary' || next.kind === 'context_op' || !allowed(next)) continue
      const unit = unitOf(context, next, units)
      if (unit === undefined || group.includes(unit)) continue
      if (!sendable(unit)) break
      group.push(unit)
      found++
      edge = direction < 0 ? unit.start : Math.max(...unitSeqs(unit))
    }
  }
  return group.flatMap((unit) => unitEntries(unit, context))
}

function emptyBlock(query: readonly string[], room: number, skipped: RecallSkip): RecallBlock {
  return { text: '', tokens: 0, meta: { query, budget: Math.max(0, room), tokens: 0, seqs: [], hits: [], skipped }, lines: new Map(), groups: [] }
}

/** The block without entries the window took back (sent in the history instead), rendered again within `room`. */
export function withoutEntries(context: ProjectionContext, block: RecallBlock, taken: ReadonlySet<number>, room: number): RecallBlock {
  if (taken.size === 0 && block.tokens <= room) return block
  const hits: RecallHit[] = []
  const groups: number[][] = []
  block.groups.forEach((group, position) => {
    const hit = block.meta.hits[position] as RecallHit
    // A hit the window now sends takes its surroundings with it: they were in the block for its sake.
    if (taken.has(hit.seq)) return
    const kept = group.filter((seq) => !taken.has(seq))
    if (kept.length === 0) return
    hits.push(hit)
    groups.push(kept)
  })
  const options = context.input.policy.recall as NonNullable<typeof context.input.policy.recall>
  if (hits.length === 0) return emptyBlock(block.meta.query, room, 'nothing-older')
  return renderBlock(context, block.lines, hits, groups, block.meta.query, Math.min(room, options.maxTokens), options.header)
}

/**
 * The block's text (each line ended by a newline), runs of consecutive entries together and a gap
 * marked between runs. Counted line by line when the counter counts lines apart (each line's count
 * is exact and cached), else whole and trimmed of its weakest hits until its exact count fits.
 */
function renderBlock(
  context: ProjectionContext,
  chosen: ReadonlyMap<number, { readonly line: string; readonly tokens: number }>,
  hits: readonly RecallHit[],
  groups: readonly (readonly number[])[],
  query: readonly string[],
  room: number,
  header: string,
): RecallBlock {
  const counter = context.input.counter
  const budget = Math.max(0, room)
  // Bounded by the number of hits: each round drops the weakest hit's entries.
  for (let kept = hits.length; kept > 0; kept--) {
    const seqs = groups
      .slice(0, kept)
      .flat()
      .sort((a, b) => a - b)
    const lines = [header]
    let byLines = MESSAGE_OVERHEAD_TOKENS + counter.countCached(`${header}\n`)
    let apart = countsLinesApart(counter)
    seqs.forEach((seq, position) => {
      if (position > 0 && seq !== (seqs[position - 1] as number) + 1) {
        lines.push('…')
        byLines += counter.countCached('…\n')
      }
      const line = chosen.get(seq) as { readonly line: string; readonly tokens: number }
      lines.push(line.line)
      byLines += line.tokens
      apart &&= startsApart(line.line)
    })
    const text = `${lines.join('\n')}\n`
    const tokens = apart ? byLines : MESSAGE_OVERHEAD_TOKENS + counter.countCached(text)
    if (tokens <= room) {
      const meta = { query, budget, tokens, seqs, hits: hits.slice(0, kept), skipped: undefined }
      return { text, tokens, meta, lines: chosen, groups: groups.slice(0, kept) }
    }
  }
  return emptyBlock(query, room, 'no-room')
}

/**
 * The projector's recall phase, carried by every searcher `project()` takes (`createRecallIndex`,
 * `createHybridRecallIndex`, `recallSearcher`), so its code loads with `@threadlens/core/recall`
 * and not with every app that projects.
 */
export const recallPhase: RecallPhase = { plan: planRecall, select: selectRecall, without: withoutEntries }
