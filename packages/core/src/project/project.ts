import type { Entry, EntryKind, SummaryEntry } from '../entries/entry'
import { toolResultText } from '../entries/entry-text'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries, type ThreadIndex } from '../entries/thread-index'
import type { ContextPolicy } from '../policy/policy'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, type TokenCounter } from '../tokens/token-counter'
import type {
  DropReason,
  DroppedRange,
  MessageInfo,
  NeedsSummaryReason,
  ProjectedMessage,
  ProjectInput,
  ProjectionResult,
  Segment,
} from './types'
import { entryAt, unitOf, unitSeqs, type Unit, type UnitContext } from './units'

interface UnitCost {
  readonly tokens: number
  readonly messageCount: number
}

const includeSets = new WeakMap<readonly EntryKind[], ReadonlySet<EntryKind>>()

function includeSetOf(kinds: readonly EntryKind[]): ReadonlySet<EntryKind> {
  let set = includeSets.get(kinds)
  if (set === undefined) {
    set = new Set(kinds)
    includeSets.set(kinds, set)
  }
  return set
}

function sourceOf(thread: ThreadSource | readonly Entry[]): ThreadSource {
  if (Array.isArray(thread)) {
    const entries = thread as readonly Entry[]
    return { entries, index: indexOfEntries(entries) }
  }
  return thread as ThreadSource
}

/**
 * Projects a thread into the messages a model sees now, under a policy, with meta explaining
 * every decision. Pure: no I/O, no clock, no randomness; inputs are not mutated; the same input
 * gives byte-identical output. Its cost grows with the window, not with the thread.
 */
export function project(input: ProjectInput): ProjectionResult {
  const { policy, counter } = input
  const source = sourceOf(input.thread)
  const { entries, index } = source
  const firstSeq = entries[0]?.seq ?? 0
  const lastSeq = firstSeq + entries.length - 1
  const include = includeSetOf(policy.includeKinds)
  const visibleFrom = Math.max(firstSeq, index.resetSeq + 1)
  const context: UnitContext = {
    entries,
    index,
    firstSeq,
    visibleFrom,
    toolsIncluded: include.has('tool_call') && include.has('tool_result'),
  }
  const budget = policy.maxInputTokens - policy.reserveOutputTokens

  // Fixed segments: system prompt (with the reply priming), tool schemas, pending messages.
  const systemTokens =
    REPLY_PRIMING_TOKENS + (policy.systemPrompt === undefined ? 0 : MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.systemPrompt))
  const toolTokens = input.tools === undefined ? 0 : counter.countTools(input.tools)
  const pending = input.pending ?? []
  const pendingCosts = pending.map((message) => MESSAGE_OVERHEAD_TOKENS + counter.countCached(message.content))
  const pendingTokens = sum(pendingCosts)

  // The user's latest message is never dropped: pending if there is one, else the thread's.
  const pendingHasUser = pending.some((message) => message.role === 'user')
  const anchorSeq = pendingHasUser || !include.has('message') ? undefined : latestVisible(index.userSeqs, visibleFrom)
  const anchor = anchorSeq === undefined ? undefined : entryAt(context, anchorSeq)
  const anchorTokens = anchor === undefined ? 0 : counter.countEntry(anchor)

  const mandatoryTokens = systemTokens + toolTokens + pendingTokens + anchorTokens
  const overflow = mandatoryTokens > budget
  let remaining = budget - mandatoryTokens

  // Summary checkpoint, then memory, when they fit.
  const summaryEntry = include.has('summary') ? newestSummary(context, index) : undefined
  let summaryUsed = false
  let summaryTokens = 0
  let summaryText = ''
  if (summaryEntry !== undefined) {
    summaryText = policy.summaryPrefix + summaryEntry.payload.content
    const cost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(summaryText)
    if (cost <= remaining) {
      summaryUsed = true
      summaryTokens = cost
      remaining -= cost
    }
  }
  const coveredFrom = summaryUsed ? Math.max(visibleFrom, (summaryEntry as SummaryEntry).payload.fromSeq) : 0
  const coveredTo = summaryUsed ? (summaryEntry as SummaryEntry).payload.toSeq : -1

  let memoryTokens = 0
  const memoryText = input.memory ?? ''
  if (memoryText !== '') {
    const cost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(memoryText)
    if (cost <= remaining) {
      memoryTokens = cost
      remaining -= cost
    }
  }

  // Decisions, by unit. `explicit` records the fate of every entry the walk looked at.
  const units = new Map<string, Unit>()
  const costs = new Map<string, UnitCost>()
  const included = new Map<string, Unit>()
  const explicit = new Map<number, DropReason | 'included'>()
  const costOf = (unit: Unit): UnitCost => {
    let cost = costs.get(unit.key)
    if (cost === undefined) {
      cost = unitCost(unit, policy, counter)
      costs.set(unit.key, cost)
    }
    return cost
  }
  const decide = (unit: Unit, fate: DropReason | 'included'): void => {
    for (const seq of unitSeqs(unit)) explicit.set(seq, fate)
    if (fate === 'included') {
      included.set(unit.key, unit)
      if (policy.unresolvedToolCalls === 'drop') {
        unit.calls.forEach((call, position) => {
          if (unit.results[position] === undefined) explicit.set(call.seq, 'unresolved')
        })
      }
    }
  }

  if (anchor !== undefined) {
    const unit = unitOf(context, anchor, units) as Unit
    decide(unit, 'included')
  }
  // The summary entry in use is present (as the summary segment) even if the walk stops short of it.
  if (summaryUsed) explicit.set((summaryEntry as SummaryEntry).seq, 'included')

  // Pinned units are always candidates, whatever the windows say; newest first while they fit.
  let pinnedDroppedByBudget = false
  const pinnedUnits: Unit[] = []
  for (const seq of index.pinnedSeqs) {
    if (seq < visibleFrom || seq > lastSeq) continue
    const entry = entryAt(context, seq)
    if (entry === undefined || !include.has(entry.kind)) continue
    if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && !context.toolsIncluded) continue
    const unit = unitOf(context, entry, units)
    if (unit !== undefined && !included.has(unit.key) && !pinnedUnits.includes(unit)) pinnedUnits.push(unit)
  }
  pinnedUnits.sort((a, b) => b.start - a.start)
  for (const unit of pinnedUnits) {
    const cost = costOf(unit)
    if (cost.messageCount === 0) {
      decide(unit, 'unresolved')
    } else if (cost.tokens <= remaining) {
      remaining -= cost.tokens
      decide(unit, 'included')
    } else {
      pinnedDroppedByBudget = true
      decide(unit, 'budget')
    }
  }

  // Windows: the oldest seq a turn window allows, and the message count cap.
  const turnFloor = turnWindowFloor(policy.maxTurns, index.userSeqs, visibleFrom, pendingHasUser)
  let messageCount = anchor === undefined ? 0 : 1
  const maxMessages = policy.maxMessages ?? Number.POSITIVE_INFINITY

  // Walk newest to oldest; decide each unit at its start; stop at the first that does not fit.
  let stopReason: DropReason | undefined
  let lowWater = visibleFrom
  const straddlers: Unit[] = []
  const consider = (unit: Unit): boolean => {
    if (explicit.has(unit.start)) return true
    const cost = costOf(unit)
    let reason: DropReason | undefined
    if (unit.start < turnFloor || messageCount + cost.messageCount > maxMessages) reason = 'window'
    else if (cost.tokens > remaining) reason = 'budget'
    if (reason !== undefined) {
      stopReason = reason
      lowWater = unit.start
      decide(unit, reason)
      return false
    }
    if (cost.messageCount === 0) {
      decide(unit, 'unresolved')
      return true
    }
    remaining -= cost.tokens
    messageCount += cost.messageCount
    decide(unit, 'included')
    return true
  }
  const flushStraddlers = (): boolean => {
    straddlers.sort((a, b) => b.start - a.start)
    for (const unit of straddlers) if (!consider(unit)) return false
    straddlers.length = 0
    return true
  }

  let seq = lastSeq
  while (seq >= visibleFrom) {
    if (seq <= coveredTo && seq >= coveredFrom) {
      if (!flushStraddlers()) break
      seq = coveredFrom - 1
      continue
    }
    const entry = entryAt(context, seq) as Entry
    if (!explicit.has(seq)) {
      const fate = classify(entry, summaryEntry, summaryUsed, include, context)
      if (fate !== undefined) {
        explicit.set(seq, fate)
      } else {
        const unit = unitOf(context, entry, units)
        if (unit === undefined) explicit.set(seq, 'orphan')
        else if (unit.start === seq) {
          if (!consider(unit)) break
        } else if (summaryUsed && unit.start >= coveredFrom && unit.start <= coveredTo && !straddlers.includes(unit)) {
          straddlers.push(unit)
        }
      }
    }
    seq--
  }
  if (stopReason === undefined && straddlers.length > 0) flushStraddlers()

  // Messages, oldest unit first.
  const messages: ProjectedMessage[] = []
  const infos: MessageInfo[] = []
  if (policy.systemPrompt !== undefined) {
    messages.push({ role: 'system', content: policy.systemPrompt })
    infos.push({ segment: 'system', tokens: systemTokens - REPLY_PRIMING_TOKENS, seqs: [] })
  }
  if (memoryTokens > 0) {
    messages.push({ role: 'system', content: memoryText })
    infos.push({ segment: 'memory', tokens: memoryTokens, seqs: [] })
  }
  if (summaryUsed) {
    messages.push({ role: policy.summaryRole, content: summaryText })
    infos.push({ segment: 'summary', tokens: summaryTokens, seqs: [(summaryEntry as SummaryEntry).seq] })
  }
  let historyTokens = 0
  const history = [...included.values()].sort((a, b) => a.start - b.start)
  for (const unit of history) historyTokens += emitUnit(unit, policy, counter, messages, infos)
  pending.forEach((message, position) => {
    messages.push({ role: message.role, content: message.content })
    infos.push({ segment: 'pending', tokens: pendingCosts[position] as number, seqs: [] })
  })

  const includedSeqs: number[] = []
  for (const [entrySeq, fate] of explicit) if (fate === 'included') includedSeqs.push(entrySeq)
  includedSeqs.sort((a, b) => a - b)

  const dropped = droppedRanges({
    firstSeq,
    lastSeq,
    resetSeq: index.resetSeq,
    visibleFrom,
    coveredFrom,
    coveredTo,
    lowWater,
    stopReason,
    explicit,
    includedSeqs,
  })

  const tokens = {
    system: systemTokens,
    memory: memoryTokens,
    summary: summaryTokens,
    history: historyTokens,
    pending: pendingTokens,
    tools: toolTokens,
    total: systemTokens + memoryTokens + summaryTokens + historyTokens + pendingTokens + toolTokens,
  }
  const truncated = stopReason !== undefined || pinnedDroppedByBudget
  const historyDropped = dropped.some((range) => range.reason === 'budget' || range.reason === 'window')
  const needsSummaryReason: NeedsSummaryReason | undefined = overflow
    ? 'overflow'
    : historyDropped
      ? 'history-dropped'
      : tokens.total > policy.summarizeAtRatio * budget
        ? 'over-threshold'
        : undefined

  return {
    messages,
    meta: {
      tokens,
      budget: {
        maxInputTokens: policy.maxInputTokens,
        reserveOutputTokens: policy.reserveOutputTokens,
        input: budget,
        free: budget - tokens.total,
      },
      counter: { id: counter.id, exact: counter.exact },
      messages: infos,
      includedSeqs,
      dropped,
      summary: summaryUsed
        ? { seq: (summaryEntry as SummaryEntry).seq, fromSeq: coveredFrom, toSeq: coveredTo }
        : undefined,
      summaryUsed,
      truncated,
      needsSummary: needsSummaryReason !== undefined,
      needsSummaryReason,
      overflow,
      unresolvedToolCalls: unresolvedCalls(context, index),
      pinnedSeqs: [...index.pinnedSeqs].filter((pinned) => pinned >= firstSeq && pinned <= lastSeq).sort((a, b) => a - b),
      entryCount: entries.length,
      firstSeq,
    },
  }
}

/** The fate of entries that never form a unit, or `undefined` for entries that do. */
function classify(
  entry: Entry,
  summaryEntry: SummaryEntry | undefined,
  summaryUsed: boolean,
  include: ReadonlySet<EntryKind>,
  context: UnitContext,
): DropReason | 'included' | undefined {
  if (entry.kind === 'context_op') return 'applied'
  if (entry.kind === 'summary') {
    if (entry === summaryEntry) return summaryUsed ? 'included' : 'budget'
    return include.has('summary') ? 'superseded' : 'kind'
  }
  if (!include.has(entry.kind)) return 'kind'
  if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && !context.toolsIncluded) return 'kind'
  return undefined
}

function unitCost(unit: Unit, policy: ContextPolicy, counter: TokenCounter): UnitCost {
  if (unit.message !== undefined) return { tokens: counter.countEntry(unit.message), messageCount: 1 }
  let tokens = 0
  let calls = 0
  let tools = 0
  unit.calls.forEach((call, position) => {
    const result = unit.results[position]
    if (result === undefined && policy.unresolvedToolCalls === 'drop') return
    calls++
    tokens += counter.countEntry(call)
    tools++
    tokens +=
      result === undefined
        ? MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.interruptedResultText)
        : counter.countEntry(result)
  })
  for (const text of unit.texts) tokens += counter.countEntry(text)
  const textMessages = unit.texts.length
  // Tool calls ride on an assistant message; with no text of its own it still costs the overhead.
  const needsCarrier = calls > 0 && textMessages === 0
  if (needsCarrier) tokens += MESSAGE_OVERHEAD_TOKENS
  return { tokens, messageCount: textMessages + (needsCarrier ? 1 : 0) + tools }
}

/** Appends a unit's messages; returns their tokens. */
function emitUnit(unit: Unit, policy: ContextPolicy, counter: TokenCounter, messages: ProjectedMessage[], infos: MessageInfo[]): number {
  const segment: Segment = 'history'
  if (unit.message !== undefined) {
    const tokens = counter.countEntry(unit.message)
    messages.push({ role: unit.message.payload.role, content: unit.message.payload.content })
    infos.push({ segment, tokens, seqs: [unit.message.seq] })
    return tokens
  }
  const kept = unit.calls
    .map((call, position) => ({ call, result: unit.results[position] }))
    .filter((pair) => pair.result !== undefined || policy.unresolvedToolCalls === 'interrupt')
  let total = 0
  // Every text but the last goes out as its own assistant message; the last carries the calls.
  unit.texts.forEach((text, position) => {
    const carriesCalls = position === unit.texts.length - 1 && kept.length > 0
    let tokens = counter.countEntry(text)
    const seqs = [text.seq]
    if (carriesCalls) {
      for (const { call } of kept) {
        tokens += counter.countEntry(call)
        seqs.push(call.seq)
      }
    }
    messages.push(
      carriesCalls
        ? { role: 'assistant', content: text.payload.content, toolCalls: kept.map(({ call }) => toolCallOf(call)) }
        : { role: 'assistant', content: text.payload.content },
    )
    infos.push({ segment, tokens, seqs })
    total += tokens
  })
  if (kept.length === 0) return total
  if (unit.texts.length === 0) {
    let tokens = MESSAGE_OVERHEAD_TOKENS
    for (const { call } of kept) tokens += counter.countEntry(call)
    messages.push({ role: 'assistant', content: '', toolCalls: kept.map(({ call }) => toolCallOf(call)) })
    infos.push({ segment, tokens, seqs: kept.map(({ call }) => call.seq) })
    total += tokens
  }
  for (const { call, result } of kept) {
    const toolCallId = call.refs.toolCallId as string
    if (result === undefined) {
      const tokens = MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.interruptedResultText)
      messages.push({ role: 'tool', toolCallId, name: call.payload.name, content: policy.interruptedResultText, isError: true })
      infos.push({ segment, tokens, seqs: [], synthetic: 'interrupted' })
      total += tokens
    } else {
      const tokens = counter.countEntry(result)
      const content = toolResultText(result.payload)
      messages.push(
        result.payload.error === undefined
          ? { role: 'tool', toolCallId, name: result.payload.name, content }
          : { role: 'tool', toolCallId, name: result.payload.name, content, isError: true },
      )
      infos.push({ segment, tokens, seqs: [result.seq] })
      total += tokens
    }
  }
  return total
}

function toolCallOf(call: Entry & { kind: 'tool_call' }): { id: string; name: string; arguments: typeof call.payload.arguments } {
  return { id: call.refs.toolCallId as string, name: call.payload.name, arguments: call.payload.arguments }
}

function newestSummary(context: UnitContext, index: ThreadIndex): SummaryEntry | undefined {
  const seqs = index.summarySeqs
  for (let position = seqs.length - 1; position >= 0; position--) {
    const seq = seqs[position] as number
    if (seq < context.visibleFrom) return undefined
    const entry = entryAt(context, seq)
    if (entry?.kind === 'summary' && entry.payload.toSeq >= context.visibleFrom) return entry
  }
  return undefined
}

function latestVisible(seqs: readonly number[], visibleFrom: number): number | undefined {
  const last = seqs[seqs.length - 1]
  return last !== undefined && last >= visibleFrom ? last : undefined
}

/** The oldest seq a `maxTurns` window lets in (a pending user message opens a turn of its own). */
function turnWindowFloor(maxTurns: number | undefined, userSeqs: readonly number[], visibleFrom: number, pendingHasUser: boolean): number {
  if (maxTurns === undefined) return visibleFrom
  const historyTurns = pendingHasUser ? maxTurns - 1 : maxTurns
  if (historyTurns <= 0) return Number.POSITIVE_INFINITY
  const start = userSeqs[userSeqs.length - historyTurns]
  return start === undefined ? visibleFrom : Math.max(visibleFrom, start)
}

function unresolvedCalls(context: UnitContext, index: ThreadIndex): { toolCallId: string; name: string; seq: number }[] {
  const calls: { toolCallId: string; name: string; seq: number }[] = []
  for (const toolCallId of index.unresolvedToolCallIds) {
    const seq = index.callSeqByToolCallId.get(toolCallId) as number
    const entry = entryAt(context, seq)
    if (entry?.kind === 'tool_call') calls.push({ toolCallId, name: entry.payload.name, seq })
  }
  return calls.sort((a, b) => a.seq - b.seq)
}

interface RangeInput {
  readonly firstSeq: number
  readonly lastSeq: number
  readonly resetSeq: number
  readonly visibleFrom: number
  readonly coveredFrom: number
  readonly coveredTo: number
  /** Below this seq the walk did not look: those entries share `stopReason`. */
  readonly lowWater: number
  readonly stopReason: DropReason | undefined
  readonly explicit: ReadonlyMap<number, DropReason | 'included'>
  readonly includedSeqs: readonly number[]
}

/**
 * Every entry not present raw and not covered by the summary in use, as ascending ranges.
 * Only the walked part is looked at entry by entry; older parts are whole ranges split around
 * the pinned entries that made it in, so meta stays small on huge threads.
 */
function droppedRanges(input: RangeInput): DroppedRange[] {
  const ranges: DroppedRange[] = []
  const push = (seq: number, reason: DropReason): void => {
    const last = ranges[ranges.length - 1]
    if (last !== undefined && last.reason === reason && last.toSeq === seq - 1) {
      ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq: seq, reason }
    } else ranges.push({ fromSeq: seq, toSeq: seq, reason })
  }
  const pushRange = (fromSeq: number, toSeq: number, reason: DropReason): void => {
    if (toSeq < fromSeq) return
    const last = ranges[ranges.length - 1]
    if (last !== undefined && last.reason === reason && last.toSeq === fromSeq - 1) {
      ranges[ranges.length - 1] = { fromSeq: last.fromSeq, toSeq, reason }
    } else ranges.push({ fromSeq, toSeq, reason })
  }
  const covered = (seq: number): boolean => seq >= input.coveredFrom && seq <= input.coveredTo

  // Hidden by reset; the reset op itself is applied, never shown.
  if (input.visibleFrom > input.firstSeq) {
    pushRange(input.firstSeq, input.visibleFrom - 2, 'reset')
    push(input.visibleFrom - 1, input.resetSeq === input.visibleFrom - 1 ? 'applied' : 'reset')
  }

  // Not walked: one reason for all, split around included (pinned) entries and the summary's range.
  if (input.stopReason !== undefined) {
    const reason = input.stopReason
    let from = input.visibleFrom
    const splitters = input.includedSeqs.filter((seq) => seq < input.lowWater)
    const gaps: [number, number][] = []
    if (input.coveredTo >= input.coveredFrom) gaps.push([input.coveredFrom, input.coveredTo])
    for (const seq of splitters) gaps.push([seq, seq])
    gaps.sort((a, b) => a[0] - b[0])
    for (const [gapFrom, gapTo] of gaps) {
      if (gapTo < from) continue
      if (gapFrom >= input.lowWater) break
      pushRange(from, Math.min(gapFrom, input.lowWater) - 1, reason)
      from = gapTo + 1
    }
    pushRange(from, input.lowWater - 1, reason)
  }

  // Walked: entry by entry.
  for (let seq = Math.max(input.lowWater, input.visibleFrom); seq <= input.lastSeq; seq++) {
    if (covered(seq)) {
      // Whatever is not raw in the summary's range is covered by it; skip the range in one step.
      seq = input.coveredTo
      continue
    }
    const fate = input.explicit.get(seq)
    if (fate === 'included') continue
    push(seq, fate ?? input.stopReason ?? 'budget')
  }
  return ranges
}

function sum(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return total
}
