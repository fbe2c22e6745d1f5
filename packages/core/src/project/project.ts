import type { Entry, EntryKind, MessageEntry, SummaryEntry, ToolCallEntry, ToolResultEntry } from '../entries/entry'
import { toolResultText } from '../entries/entry-text'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries, type ThreadIndex } from '../entries/thread-index'
import type { ContextPolicy } from '../policy/policy'
import { MESSAGE_OVERHEAD_TOKENS, messageTokens, REPLY_PRIMING_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { attachmentTokens } from '../tokens/attachment-tokens'
import { messageInfo, projectedMessage, sentParts, type SentParts } from './message-parts'
import { renderMemory } from '../memory/render-memory'
import { HashBuilder } from '../utils/hash'
import { cacheWindowMovedAt, cacheWindowStart, cumulativeTokens } from './cache-window'
import { placeCacheBreakpoints, placeOpenAICacheBreakpoints } from './cache-breakpoints'
import { droppedRanges } from './dropped-ranges'
import { turnWindowFloor } from './turns'
import { planUnit, reducedResultTokens, type ReductionContext, type UnitPlan } from './reductions'
import type {
  DropReason,
  MessageInfo,
  NeedsSummaryReason,
  ProjectedMessage,
  ProjectInput,
  ProjectionResult,
  Reduction,
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
  const pendingCosts = pending.map((message) => messageTokens(message, (text) => counter.countCached(text)))
  const pendingTokens = sum(pendingCosts)

  // The user's latest message is never dropped: pending if there is one, else the thread's.
  const pendingHasUser = pending.some((message) => message.role === 'user')
  const anchorSeq = pendingHasUser || !include.has('message') ? undefined : latestVisible(index.userSeqs, visibleFrom)
  const anchor = anchorSeq === undefined ? undefined : entryAt(context, anchorSeq)

  // Images of messages before the newest `keepImagesTurns` turns stay in the thread but are not sent (pinned ones are).
  const imageFloor = policy.keepImagesTurns === undefined ? Number.NEGATIVE_INFINITY : turnWindowFloor(policy.keepImagesTurns, index.userSeqs, visibleFrom, pendingHasUser)
  const sentBySeq = new Map<number, SentParts>()
  const sentOf = (message: MessageEntry): SentParts => {
    let sent = sentBySeq.get(message.seq)
    if (sent === undefined) {
      const omitImages = message.seq < imageFloor && !index.pinnedSeqs.has(message.seq)
      sentBySeq.set(message.seq, (sent = sentParts(message, omitImages, (parts) => attachmentTokens(parts))))
    }
    return sent
  }
  // A message's cost as sent: its counted tokens less the images left out.
  const messageCost = (message: MessageEntry): number => counter.countEntry(message) - sentOf(message).omittedTokens
  const anchorTokens = anchor === undefined ? 0 : messageCost(anchor as MessageEntry)

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
  const rendered = typeof input.memory === 'object' ? renderMemory(input.memory, { spaces: policy.memorySpaces, maxTokens: policy.memoryMaxTokens, counter }) : undefined
  const memoryText = rendered?.text ?? (input.memory as string | undefined) ?? ''
  if (memoryText !== '') {
    const cost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(memoryText)
    if (cost <= remaining) {
      memoryTokens = cost
      remaining -= cost
    }
  }
  const memoryMeta =
    input.memory === undefined
      ? undefined
      : {
          rev: rendered?.rev,
          spaces: memoryTokens > 0 ? (rendered?.spaces ?? []) : [],
          omitted: memoryTokens > 0 ? (rendered?.omitted ?? []) : [...(rendered?.spaces ?? []), ...(rendered?.omitted ?? [])],
          dropped: memoryText !== '' && memoryTokens === 0,
        }

  // Cache-friendly windows move in chunks, on a grid measured from a fixed origin. Pending
  // messages count toward the overflow (so the grid moves once, not once before and once after
  // they are appended); the grid never cuts into the latest turn, which the budget alone decides.
  const regionStart = summaryUsed ? Math.max(visibleFrom, coveredTo + 1) : visibleFrom
  const latestTurn = latestVisible(index.userSeqs, visibleFrom)
  const grid =
    policy.cacheFriendly && regionStart <= lastSeq
      ? {
          sums: cumulativeTokens(entries, index, counter),
          firstSeq,
          regionStart,
          lastSeq,
          pendingTokens,
          budget: Math.max(1, budget - systemTokens - toolTokens - summaryTokens - memoryTokens),
          lowWaterRatio: policy.cacheLowWaterRatio,
        }
      : undefined
  const gridStart = grid === undefined ? undefined : cacheWindowStart(grid)
  const cacheStart = gridStart === undefined || latestTurn === undefined ? gridStart : Math.min(gridStart, latestTurn)

  // Reductions rewrite a message already sent, which breaks the cached prefix there. On request
  // (`cache.reduceEveryTurns` > 1, cache-friendly windows) they come in batches: every that many
  // turns, and when the window moves (everything after its start is sent anew then anyway), each
  // time using the protected zone as it stood at that moment. Between batches nothing sent changes.
  const protectedFrom = turnWindowFloor(policy.keepLastTurns, index.userSeqs, visibleFrom, pendingHasUser)
  let reductionFloor = protectedFrom
  // Where the batch before this one stopped: the cached prefix a batch can still read ends there.
  let previousReductionFloor: number | undefined
  if (policy.cacheFriendly && policy.cache.reduceEveryTurns > 1) {
    // The protected zone when the thread ended at `seq`: nothing after it existed to reduce.
    const floorAsOf = (seq: number): number => Math.min(seq + 1, turnWindowFloor(policy.keepLastTurns, userSeqsUpTo(index.userSeqs, seq), visibleFrom, false))
    const movedAt = grid === undefined ? undefined : cacheWindowMovedAt(grid)
    const windowFloor = movedAt === undefined ? visibleFrom : floorAsOf(movedAt)
    const hiddenTurns = userSeqsUpTo(index.userSeqs, visibleFrom - 1).length
    const visibleTurns = index.userSeqs.length - hiddenTurns
    const batchTurns = Math.floor(visibleTurns / policy.cache.reduceEveryTurns) * policy.cache.reduceEveryTurns
    const nextTurnStart = batchTurns === 0 ? undefined : index.userSeqs[hiddenTurns + batchTurns]
    const turnFloor = batchTurns === 0 ? visibleFrom : floorAsOf(nextTurnStart === undefined ? lastSeq : nextTurnStart - 1)
    reductionFloor = Math.min(protectedFrom, Math.max(windowFloor, turnFloor))
    if (batchTurns >= policy.cache.reduceEveryTurns) {
      const previousTurnStart = index.userSeqs[hiddenTurns + batchTurns - policy.cache.reduceEveryTurns] as number
      previousReductionFloor = Math.min(reductionFloor, floorAsOf(previousTurnStart - 1))
    }
  }

  // Decisions, by unit. `explicit` records the fate of every entry the walk looked at.
  const units = new Map<string, Unit>()
  const costs = new Map<string, UnitCost>()
  const plans = new Map<string, UnitPlan>()
  const included = new Map<string, Unit>()
  const explicit = new Map<number, DropReason | 'included'>()
  const reductionContext: ReductionContext = {
    unitContext: context,
    index,
    policy,
    counter,
    protectedFrom: reductionFloor,
    pinnedSeqs: index.pinnedSeqs,
  }
  const planOf = (unit: Unit): UnitPlan => {
    let plan = plans.get(unit.key)
    if (plan === undefined) plans.set(unit.key, (plan = planUnit(unit, reductionContext)))
    return plan
  }
  const costOf = (unit: Unit): UnitCost => {
    let cost = costs.get(unit.key)
    if (cost === undefined) costs.set(unit.key, (cost = unitCost(unit, planOf(unit), policy, counter, messageCost)))
    return cost
  }
  const decide = (unit: Unit, fate: DropReason | 'included'): void => {
    for (const seq of unitSeqs(unit)) explicit.set(seq, fate)
    if (fate !== 'included') return
    included.set(unit.key, unit)
    const plan = planOf(unit)
    if (plan.omitTools) {
      for (const call of unit.calls) explicit.set(call.seq, 'isolated')
      for (const result of unit.results) if (result !== undefined) explicit.set(result.seq, 'isolated')
    } else if (policy.unresolvedToolCalls === 'drop') {
      unit.calls.forEach((call, position) => {
        if (unit.results[position] === undefined) explicit.set(call.seq, 'unresolved')
      })
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
      decide(unit, emptyReason(unit, planOf(unit)))
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
    else if (cacheStart !== undefined && unit.start < cacheStart) reason = 'cache-window'
    if (reason !== undefined) {
      stopReason = reason
      lowWater = unit.start
      decide(unit, reason)
      return false
    }
    if (cost.messageCount === 0) {
      decide(unit, emptyReason(unit, planOf(unit)))
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
  const emitting: EmitContext = { policy, counter, messageCost, sentOf, messages, infos }
  for (const unit of history) historyTokens += emitUnit(unit, planOf(unit), emitting)
  pending.forEach((message, position) => {
    const projected: { role: typeof message.role; content: string; name?: string; parts?: typeof message.parts } = { role: message.role, content: message.content }
    if (message.name !== undefined) projected.name = message.name
    if (message.parts !== undefined) projected.parts = message.parts
    messages.push(projected as ProjectedMessage)
    const attachments = attachmentTokens(message.parts)
    const tokens = pendingCosts[position] as number
    infos.push(attachments > 0 ? { segment: 'pending', tokens, seqs: [], attachmentTokens: attachments } : { segment: 'pending', tokens, seqs: [] })
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

  const reduced: { seq: number; how: Reduction }[] = []
  for (const unit of history) {
    const plan = planOf(unit)
    if (!plan.omitTools) for (const reduction of plan.reductions) reduced.push(reduction)
  }
  reduced.sort((a, b) => a.seq - b.seq)

  const tokens = {
    system: systemTokens,
    memory: memoryTokens,
    summary: summaryTokens,
    history: historyTokens,
    pending: pendingTokens,
    tools: toolTokens,
    total: systemTokens + memoryTokens + summaryTokens + historyTokens + pendingTokens + toolTokens,
    attachments: sum(infos.map((info) => info.attachmentTokens ?? 0)),
  }
  const truncated = stopReason !== undefined || pinnedDroppedByBudget
  const historyDropped = dropped.some((range) => range.reason === 'budget' || range.reason === 'window' || range.reason === 'cache-window')
  const needsSummaryReason: NeedsSummaryReason | undefined = overflow
    ? 'overflow'
    : historyDropped
      ? 'history-dropped'
      : tokens.total > policy.summarizeAtRatio * budget
        ? 'over-threshold'
        : undefined

  const placement = { messages, infos, hasTools: toolTokens > 0, reductionFloor, previousReductionFloor }
  const breakpoints = placeCacheBreakpoints({ ...placement, policy })
  const openAIBreakpoints =
    policy.cache.openAI === 'off'
      ? []
      : placeOpenAICacheBreakpoints(
          policy.cache.anthropic === 'explicit' ? breakpoints : placeCacheBreakpoints({ ...placement, policy: { ...policy, cache: { ...policy.cache, anthropic: 'explicit' } } }),
          messages,
        )

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
      reduced,
      dropped,
      summary: summaryUsed
        ? { seq: (summaryEntry as SummaryEntry).seq, fromSeq: coveredFrom, toSeq: coveredTo }
        : undefined,
      summaryUsed,
      memory: memoryMeta,
      truncated,
      needsSummary: needsSummaryReason !== undefined,
      needsSummaryReason,
      overflow,
      unresolvedToolCalls: unresolvedCalls(context, index),
      pinnedSeqs: [...index.pinnedSeqs].filter((pinned) => pinned >= firstSeq && pinned <= lastSeq).sort((a, b) => a - b),
      prefixKey: prefixKeyOf(messages, infos, anchorSeq, policy),
      cache: {
        anthropic: policy.cache.anthropic,
        breakpoints,
        openAIBreakpoints,
        ttl: policy.cache.ttl,
        key: policy.cache.openAIKey === false ? undefined : (policy.cache.openAIKey ?? entries[0]?.threadId),
        reductionFloor,
      },
      cacheWindowStart: stopReason === 'cache-window' ? cacheStart : undefined,
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

function emptyReason(unit: Unit, plan: UnitPlan): DropReason {
  return plan.omitTools && unit.results.every((result) => result !== undefined) ? 'isolated' : 'unresolved'
}

/** Calls a unit sends with its result (or a synthetic one), per its plan and the policy. */
function keptCalls(unit: Unit, plan: UnitPlan, policy: ContextPolicy): { call: ToolCallEntry; result: ToolResultEntry | undefined; text: string | undefined }[] {
  if (plan.omitTools) return []
  const kept: { call: ToolCallEntry; result: ToolResultEntry | undefined; text: string | undefined }[] = []
  unit.calls.forEach((call, position) => {
    const result = unit.results[position]
    if (result === undefined && policy.unresolvedToolCalls === 'drop') return
    kept.push({ call, result, text: plan.resultTexts[position] })
  })
  return kept
}

function resultTokens(result: ToolResultEntry | undefined, text: string | undefined, policy: ContextPolicy, counter: TokenCounter): number {
  if (result === undefined) return MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.interruptedResultText)
  return text === undefined ? counter.countEntry(result) : reducedResultTokens(result, text, counter)
}

function unitCost(unit: Unit, plan: UnitPlan, policy: ContextPolicy, counter: TokenCounter, messageCost: (message: MessageEntry) => number): UnitCost {
  if (unit.message !== undefined) return { tokens: messageCost(unit.message), messageCount: 1 }
  const kept = keptCalls(unit, plan, policy)
  let tokens = 0
  for (const { call, result, text } of kept) tokens += counter.countEntry(call) + resultTokens(result, text, policy, counter)
  for (const text of unit.texts) tokens += messageCost(text)
  // Tool calls ride on an assistant message; with no text of its own it still costs the overhead.
  const needsCarrier = kept.length > 0 && unit.texts.length === 0
  if (needsCarrier) tokens += MESSAGE_OVERHEAD_TOKENS
  return { tokens, messageCount: unit.texts.length + (needsCarrier ? 1 : 0) + kept.length }
}

interface EmitContext {
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly messageCost: (message: MessageEntry) => number
  readonly sentOf: (message: MessageEntry) => SentParts
  readonly messages: ProjectedMessage[]
  readonly infos: MessageInfo[]
}

/** Appends a unit's messages; returns their tokens. */
function emitUnit(unit: Unit, plan: UnitPlan, context: EmitContext): number {
  const { policy, counter, messageCost, sentOf, messages, infos } = context
  const segment: Segment = 'history'
  if (unit.message !== undefined) {
    const tokens = messageCost(unit.message)
    const sent = sentOf(unit.message)
    messages.push(projectedMessage(unit.message, sent))
    infos.push(messageInfo(segment, tokens, [unit.message.seq], sent))
    return tokens
  }
  const kept = keptCalls(unit, plan, policy)
  let total = 0
  // Every text but the last goes out as its own assistant message; the last carries the calls.
  unit.texts.forEach((text, position) => {
    const carriesCalls = position === unit.texts.length - 1 && kept.length > 0
    let tokens = messageCost(text)
    const seqs = [text.seq]
    const sent = sentOf(text)
    if (carriesCalls) {
      for (const { call } of kept) {
        tokens += counter.countEntry(call)
        seqs.push(call.seq)
      }
    }
    const message = projectedMessage(text, sent)
    messages.push(carriesCalls ? { ...message, role: 'assistant', toolCalls: kept.map(({ call }) => toolCallOf(call)) } : message)
    infos.push(messageInfo(segment, tokens, seqs, sent))
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
  const reductionBySeq = new Map(plan.reductions.map((reduction) => [reduction.seq, reduction.how]))
  for (const { call, result, text } of kept) {
    const toolCallId = call.refs.toolCallId as string
    const tokens = resultTokens(result, text, policy, counter)
    total += tokens
    if (result === undefined) {
      messages.push({ role: 'tool', toolCallId, name: call.payload.name, content: policy.interruptedResultText, isError: true })
      infos.push({ segment, tokens, seqs: [], synthetic: 'interrupted' })
      continue
    }
    const content = text ?? toolResultText(result.payload)
    messages.push(
      result.payload.error === undefined
        ? { role: 'tool', toolCallId, name: result.payload.name, content }
        : { role: 'tool', toolCallId, name: result.payload.name, content, isError: true },
    )
    const how = reductionBySeq.get(result.seq)
    infos.push(how === undefined ? { segment, tokens, seqs: [result.seq] } : { segment, tokens, seqs: [result.seq], reduced: how })
  }
  return total
}

/**
 * What decides the bytes of a request's stable prefix. Entries are immutable and history is
 * contiguous from its start, so two requests of one thread render every message they share
 * identically when they agree on: the fixed segments, the entry history starts at, and which
 * earlier messages were shortened or answered synthetically. Equal keys on consecutive calls mean
 * the later request repeats the earlier one byte for byte up to the earlier one's latest user
 * message: the part a provider can serve from its prompt cache.
 */
function prefixKeyOf(messages: readonly ProjectedMessage[], infos: readonly MessageInfo[], anchorSeq: number | undefined, policy: ContextPolicy): string {
  const hash = new HashBuilder()
  hash.add(policy.summaryRole).add(policy.summaryPrefix).add(policy.interruptedResultText)
  let historyStarted = false
  for (let position = 0; position < messages.length; position++) {
    const info = infos[position] as MessageInfo
    if (info.segment === 'pending') break
    if (anchorSeq !== undefined && info.seqs[0] === anchorSeq) break
    const message = messages[position] as ProjectedMessage
    if (info.segment !== 'history') {
      hash.add(info.segment).add(message.role)
      if (info.seqs.length === 0) hash.add(message.content)
      for (const seq of info.seqs) hash.add(seq)
      continue
    }
    if (!historyStarted) {
      historyStarted = true
      hash.add('start')
      for (const seq of info.seqs) hash.add(seq)
    }
    if (info.reduced !== undefined || info.synthetic !== undefined) {
      hash.add(info.reduced ?? info.synthetic ?? '')
      for (const seq of info.seqs) hash.add(seq)
    }
  }
  return hash.hex()
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

function unresolvedCalls(context: UnitContext, index: ThreadIndex): { toolCallId: string; name: string; seq: number }[] {
  const calls: { toolCallId: string; name: string; seq: number }[] = []
  for (const toolCallId of index.unresolvedToolCallIds) {
    const seq = index.callSeqByToolCallId.get(toolCallId) as number
    const entry = entryAt(context, seq)
    if (entry?.kind === 'tool_call') calls.push({ toolCallId, name: entry.payload.name, seq })
  }
  return calls.sort((a, b) => a.seq - b.seq)
}

/** The user seqs up to `seq`, ascending (a prefix of `seqs`). */
function userSeqsUpTo(seqs: readonly number[], seq: number): readonly number[] {
  let low = 0
  let high = seqs.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((seqs[middle] as number) <= seq) low = middle + 1
    else high = middle
  }
  return seqs.slice(0, low)
}

function sum(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return total
}
