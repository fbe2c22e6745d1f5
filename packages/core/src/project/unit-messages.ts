import type { Entry, MessageEntry, ToolCallEntry, ToolResultEntry } from '../entries/entry'
import { toolResultText } from '../entries/entry-text'
import type { ContextPolicy } from '../policy/policy'
import { MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { reducedResultTokens, type UnitPlan } from './reductions'
import type { MessageInfo, ProjectedMessage, ProjectedToolCall, Segment } from './types'
import type { Unit } from './units'
import { messageInfo, projectedMessage } from './message-parts'
import type { ProjectionContext } from './projection-context'

/** What a unit costs if sent: its tokens and how many messages it becomes. */
export interface UnitCost {
  readonly tokens: number
  readonly messageCount: number
}

/** Calls a unit sends with its result (or a synthetic one), per its plan and the policy. */
function keptCalls(
  unit: Unit,
  plan: UnitPlan,
  policy: ContextPolicy,
): { call: ToolCallEntry; result: ToolResultEntry | undefined; text: string | undefined }[] {
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

export function unitCost(
  unit: Unit,
  plan: UnitPlan,
  policy: ContextPolicy,
  counter: TokenCounter,
  messageCost: (message: MessageEntry) => number,
): UnitCost {
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

/** Appends a unit's messages; returns their tokens. */
export function emitUnit(unit: Unit, plan: UnitPlan, context: ProjectionContext, messages: ProjectedMessage[], infos: MessageInfo[]): number {
  const {
    input: { policy, counter },
    messageCost,
    sentOf,
  } = context
  const segment: Segment = 'history'
  if (unit.message !== undefined) {
    const tokens = messageCost(unit.message)
    const sent = sentOf(unit.message)
    messages.push(projectedMessage(unit.message.payload, sent.parts, unit.message.payload.refusal))
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
    const message = projectedMessage(text.payload, sent.parts, text.payload.refusal)
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
    // Parts go out only with the whole result: a reduced one (masked, pruned) is its new text.
    const parts = text === undefined ? result.payload.parts : undefined
    messages.push(
      result.payload.error !== undefined
        ? { role: 'tool', toolCallId, name: result.payload.name, content, isError: true }
        : parts === undefined
          ? { role: 'tool', toolCallId, name: result.payload.name, content }
          : { role: 'tool', toolCallId, name: result.payload.name, content, parts },
    )
    const how = reductionBySeq.get(result.seq)
    infos.push(how === undefined ? { segment, tokens, seqs: [result.seq] } : { segment, tokens, seqs: [result.seq], reduced: how })
  }
  return total
}

function toolCallOf(call: Entry & { kind: 'tool_call' }): ProjectedToolCall {
  // The payload is { name, arguments, argumentsText? }: a projected call is it with its id.
  return { id: call.refs.toolCallId as string, ...call.payload }
}
