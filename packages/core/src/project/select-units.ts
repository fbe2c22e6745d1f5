import type { Entry, SummaryEntry } from '../entries/entry'
import type { CheckpointSegments } from './checkpoint-segments'
import type { FixedSegments } from './fixed-segments'
import type { ProjectionContext } from './projection-context'
import { planUnit, type UnitPlan } from './reductions'
import { turnWindowFloor } from './turns'
import type { DropReason } from './types'
import { unitCost, type UnitCost } from './unit-messages'
import { entryAt, unitOf, unitSeqs, type Unit } from './units'
import type { WindowPlan } from './window-plan'
import { memo } from '../utils/memo'

/** Which units of history are sent, and the fate of every entry the walk looked at. */
export interface UnitSelection {
  /** The units sent, oldest first. */
  readonly history: readonly Unit[]
  /** The plan (reductions, omitted tools) of each unit. */
  readonly planOf: (unit: Unit) => UnitPlan
  readonly explicit: ReadonlyMap<number, DropReason | 'included'>
  /** Why the walk stopped, and at which seq; `undefined` when it reached the start of the window. */
  readonly stopReason: DropReason | undefined
  /** Below this seq the walk did not look: those entries share `stopReason`. */
  readonly lowWater: number
  readonly pinnedDroppedByBudget: boolean
  /** Tokens of the history units sent. */
  readonly used: number
  /** Recalled entries the window took back into the history. */
  readonly takenFromRecall: ReadonlySet<number>
}

/**
 * What the walk leaves to recall: tokens held back, and the recalled entries with their cost in the
 * recall block. The walk may take a recalled unit back into the window (it is then sent there, in
 * order, and its cost in the block is freed); pinned units recall already sends stay there.
 */
export interface WalkLimits {
  readonly reserve: number
  readonly recalled: ReadonlyMap<number, { readonly tokens: number }>
}

const noLimits: WalkLimits = { reserve: 0, recalled: new Map() }

/**
 * Decides unit by unit: the latest user message, then pinned units (newest first while they
 * fit), then the rest newest to oldest, stopping at the first that the windows or the budget refuse.
 * Entries a summary covers are walked like the rest: the summary stands in only for what does not fit.
 */
export function selectUnits(
  context: ProjectionContext,
  fixed: FixedSegments,
  checkpoints: CheckpointSegments,
  windows: WindowPlan,
  limits: WalkLimits = noLimits,
): UnitSelection {
  const selector = new Selector(context, fixed, checkpoints, windows, limits)
  if (fixed.anchor !== undefined) selector.decide(unitOf(context, fixed.anchor, selector.units) as Unit, 'included')
  // The summary entry in use is present (as the summary segment) even if the walk stops short of it.
  if (checkpoints.summaryUsed) selector.explicit.set((checkpoints.summaryEntry as SummaryEntry).seq, 'included')
  selector.admitPinned()
  selector.walkNewestFirst()
  selector.history = [...selector.included.values()].sort((a, b) => a.start - b.start)
  return selector
}

/** The walk's state; once it is done, the selection itself. */
class Selector implements UnitSelection {
  readonly units = new Map<string, Unit>()
  readonly included = new Map<string, Unit>()
  history: readonly Unit[] = []
  readonly explicit = new Map<number, DropReason | 'included'>()
  stopReason: DropReason | undefined
  lowWater: number
  pinnedDroppedByBudget = false
  readonly #context: ProjectionContext
  readonly #checkpoints: CheckpointSegments
  readonly #windows: WindowPlan
  readonly #costs = new Map<string, UnitCost>()
  readonly #plans = new Map<string, UnitPlan>()
  readonly #turnFloor: number
  readonly #maxMessages: number
  #remaining: number
  #messageCount: number
  readonly #recalled: ReadonlyMap<number, { readonly tokens: number }>
  /** Of the room held back for recall, what taking recalled units back may still free (never more than was held). */
  #freeable: number
  /** Recalled entries the window took back. */
  readonly takenFromRecall = new Set<number>()
  /** Tokens the history units sent take. */
  used = 0

  constructor(context: ProjectionContext, fixed: FixedSegments, checkpoints: CheckpointSegments, windows: WindowPlan, limits: WalkLimits) {
    const { policy } = context.input
    this.#context = context
    this.#checkpoints = checkpoints
    this.#windows = windows
    this.#remaining = Math.max(0, checkpoints.remaining - limits.reserve)
    this.#recalled = limits.recalled
    this.#freeable = limits.recalled.size === 0 ? 0 : limits.reserve
    // Windows: the oldest seq a turn window allows, and the message count cap.
    this.#turnFloor = turnWindowFloor(policy.maxTurns, context.index.userSeqs, context.visibleFrom, context.pendingHasUser)
    this.#messageCount = fixed.anchor === undefined ? 0 : 1
    this.#maxMessages = policy.maxMessages ?? Number.POSITIVE_INFINITY
    this.lowWater = context.visibleFrom
  }

  planOf(unit: Unit): UnitPlan {
    return memo(this.#plans, unit.key, () => planUnit(unit, this.#context, this.#windows.reductionFloor))
  }

  #costOf(unit: Unit): UnitCost {
    return memo(this.#costs, unit.key, () =>
      unitCost(unit, this.planOf(unit), this.#context.input.policy, this.#context.input.counter, this.#context.messageCost),
    )
  }

  decide(unit: Unit, fate: DropReason | 'included'): void {
    for (const seq of unitSeqs(unit)) this.explicit.set(seq, fate)
    if (fate !== 'included') return
    this.included.set(unit.key, unit)
    const plan = this.planOf(unit)
    if (plan.omitTools) {
      for (const call of unit.calls) this.explicit.set(call.seq, 'isolated')
      for (const result of unit.results) if (result !== undefined) this.explicit.set(result.seq, 'isolated')
    } else if (this.#context.input.policy.unresolvedToolCalls === 'drop') {
      unit.calls.forEach((call, position) => {
        if (unit.results[position] === undefined) this.explicit.set(call.seq, 'unresolved')
      })
    }
  }

  /** Pinned units are always candidates, whatever the windows say; newest first while they fit. */
  admitPinned(): void {
    const context = this.#context
    const { index, visibleFrom, lastSeq, include } = context
    const pinnedUnits: Unit[] = []
    for (const seq of index.pinnedSeqs) {
      if (seq < visibleFrom || seq > lastSeq) continue
      const entry = entryAt(context, seq)
      if (entry === undefined || !include.has(entry.kind)) continue
      if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && !context.toolsIncluded) continue
      const unit = unitOf(context, entry, this.units)
      if (unit === undefined || this.included.has(unit.key) || pinnedUnits.includes(unit)) continue
      // A pinned unit recall already sends stays there.
      if (this.#recalledCost(unit) > 0) continue
      pinnedUnits.push(unit)
    }
    pinnedUnits.sort((a, b) => b.start - a.start)
    for (const unit of pinnedUnits) {
      const cost = this.#costOf(unit)
      if (cost.messageCount === 0) {
        this.decide(unit, emptyReason(unit, this.planOf(unit)))
      } else if (cost.tokens <= this.#remaining) {
        this.#remaining -= cost.tokens
        this.used += cost.tokens
        this.decide(unit, 'included')
      } else {
        this.pinnedDroppedByBudget = true
        this.decide(unit, 'budget')
      }
    }
  }

  /** Decides one unit at its start; `false` stops the walk. */
  #consider(unit: Unit): boolean {
    if (this.explicit.has(unit.start)) return true
    const cost = this.#costOf(unit)
    let reason: DropReason | undefined
    if (unit.start < this.#turnFloor || this.#messageCount + cost.messageCount > this.#maxMessages) reason = 'window'
    else if (cost.tokens > this.#remaining + this.#freed(unit)) reason = 'budget'
    else if (unit.start < (this.#windows.cacheStart ?? Number.NEGATIVE_INFINITY)) reason = 'cache-window'
    if (reason !== undefined) {
      this.stopReason = reason
      this.lowWater = unit.start
      this.decide(unit, reason)
      return false
    }
    if (cost.messageCount === 0) {
      this.decide(unit, emptyReason(unit, this.planOf(unit)))
      return true
    }
    const freed = this.#freed(unit)
    this.#remaining += freed
    this.#freeable -= freed
    for (const member of unitSeqs(unit)) if (this.#recalled.has(member)) this.takenFromRecall.add(member)
    this.#remaining -= cost.tokens
    this.used += cost.tokens
    this.#messageCount += cost.messageCount
    this.decide(unit, 'included')
    return true
  }

  /** What taking a unit back from the recall block frees: its lines' cost, within what was held back. */
  #freed(unit: Unit): number {
    return Math.min(this.#recalledCost(unit), this.#freeable)
  }

  /** What a unit's entries cost in the recall block (freed if the window takes them). */
  #recalledCost(unit: Unit): number {
    if (this.#recalled.size === 0) return 0
    let tokens = 0
    for (const member of unitSeqs(unit)) tokens += this.#recalled.get(member)?.tokens ?? 0
    return tokens
  }

  /** Walks newest to oldest; decides each unit at its start; stops at the first that does not fit. */
  walkNewestFirst(): void {
    const context = this.#context
    const { visibleFrom, lastSeq } = context
    for (let seq = lastSeq; seq >= visibleFrom; seq--) {
      if (this.explicit.has(seq)) continue
      const entry = entryAt(context, seq) as Entry
      const fate = classify(entry, this.#checkpoints, context)
      if (fate !== undefined) {
        this.explicit.set(seq, fate)
        continue
      }
      const unit = unitOf(context, entry, this.units)
      if (unit === undefined) this.explicit.set(seq, 'orphan')
      else if (unit.start === seq && !this.#consider(unit)) break
    }
  }
}

/** The fate of entries that never form a unit, or `undefined` for entries that do. */
function classify(
  entry: Entry,
  { summaryEntry, summaryUsed, summaryTried }: CheckpointSegments,
  { include, toolsIncluded }: ProjectionContext,
): DropReason | 'included' | undefined {
  if (entry.kind === 'context_op') return 'applied'
  if (entry.kind === 'summary') {
    if (entry === summaryEntry) return summaryUsed ? 'included' : summaryTried ? 'budget' : 'unneeded'
    return include.has('summary') ? 'superseded' : 'kind'
  }
  if (!include.has(entry.kind)) return 'kind'
  if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && !toolsIncluded) return 'kind'
  return undefined
}

function emptyReason(unit: Unit, plan: UnitPlan): DropReason {
  return plan.omitTools && unit.results.every((result) => result !== undefined) ? 'isolated' : 'unresolved'
}
