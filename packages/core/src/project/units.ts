import type { Entry, MessageEntry, ToolCallEntry, ToolResultEntry } from '../entries/entry'
import type { ThreadIndex } from '../entries/thread-index'
import { memo } from '../utils/memo'

/**
 * An atomic unit of history: kept or dropped whole. Either one message, or one model call's
 * assistant text and tool calls together with every result answering those calls.
 */
export interface Unit {
  readonly key: string
  /** Lowest member seq: the unit's place in the conversation. */
  readonly start: number
  readonly message: MessageEntry | undefined
  /** Model call units: assistant text messages (rarely more than one), tool calls and their results. */
  readonly texts: readonly MessageEntry[]
  readonly calls: readonly ToolCallEntry[]
  /** Result per call, same order as `calls`; `undefined` where the call is unresolved. */
  readonly results: readonly (ToolResultEntry | undefined)[]
}

export interface UnitContext {
  readonly entries: readonly Entry[]
  readonly index: ThreadIndex
  readonly firstSeq: number
  /** Entries below this seq are hidden (reset) or not loaded. */
  readonly visibleFrom: number
  /** Whether tool calls and results may be projected at all (both kinds included). */
  readonly toolsIncluded: boolean
}

export function entryAt(context: UnitContext, seq: number): Entry | undefined {
  return context.entries[seq - context.firstSeq]
}

/**
 * The unit an entry belongs to, or `undefined` when the entry cannot be projected on its own
 * terms: a tool result whose call is hidden or missing (an orphan).
 */
export function unitOf(context: UnitContext, entry: Entry, cache: Map<string, Unit>): Unit | undefined {
  switch (entry.kind) {
    case 'message': {
      const callId = entry.refs.callId
      if (context.toolsIncluded && callId !== undefined && entry.payload.role === 'assistant' && hasToolCalls(context, callId)) {
        return callUnit(context, callId, cache)
      }
      const key = `m:${entry.seq}`
      return memo(cache, key, () => ({ key, start: entry.seq, message: entry, texts: [], calls: [], results: [] }))
    }
    case 'tool_call': {
      const callId = entry.refs.callId
      if (callId !== undefined) return callUnit(context, callId, cache)
      return singleCallUnit(context, entry, cache)
    }
    case 'tool_result': {
      const callSeq = context.index.callSeqByToolCallId.get(entry.refs.toolCallId as string)
      if (callSeq === undefined || callSeq < context.visibleFrom) return undefined
      const call = entryAt(context, callSeq)
      if (call === undefined || call.kind !== 'tool_call') return undefined
      return unitOf(context, call, cache)
    }
    case 'summary':
    case 'context_op':
      return undefined
  }
}

function hasToolCalls(context: UnitContext, callId: string): boolean {
  const seqs = context.index.seqsByCallId.get(callId)
  if (seqs === undefined) return false
  for (const seq of seqs) {
    if (seq >= context.visibleFrom && entryAt(context, seq)?.kind === 'tool_call') return true
  }
  return false
}

function callUnit(context: UnitContext, callId: string, cache: Map<string, Unit>): Unit {
  const key = `c:${callId}`
  return memo(cache, key, () => {
    const texts: MessageEntry[] = []
    const calls: ToolCallEntry[] = []
    for (const seq of context.index.seqsByCallId.get(callId) ?? []) {
      if (seq < context.visibleFrom) continue
      const member = entryAt(context, seq)
      if (member === undefined) continue
      if (member.kind === 'tool_call') calls.push(member)
      else if (member.kind === 'message') texts.push(member)
    }
    return withResults(context, key, texts, calls)
  })
}

function singleCallUnit(context: UnitContext, call: ToolCallEntry, cache: Map<string, Unit>): Unit {
  const key = `t:${call.refs.toolCallId as string}`
  return memo(cache, key, () => withResults(context, key, [], [call]))
}

function withResults(context: UnitContext, key: string, texts: MessageEntry[], calls: ToolCallEntry[]): Unit {
  const results = calls.map((call) => {
    const seq = context.index.resultSeqByToolCallId.get(call.refs.toolCallId as string)
    const result = seq === undefined ? undefined : entryAt(context, seq)
    return result?.kind === 'tool_result' ? result : undefined
  })
  const first = [...texts, ...calls].reduce((lowest, member) => Math.min(lowest, member.seq), Number.POSITIVE_INFINITY)
  return { key, start: first, message: undefined, texts, calls, results }
}

/** Every member seq of a unit, ascending. */
export function unitSeqs(unit: Unit): number[] {
  if (unit.message !== undefined) return [unit.message.seq]
  const seqs: number[] = []
  for (const text of unit.texts) seqs.push(text.seq)
  for (const call of unit.calls) seqs.push(call.seq)
  for (const result of unit.results) if (result !== undefined) seqs.push(result.seq)
  return seqs.sort((a, b) => a - b)
}
