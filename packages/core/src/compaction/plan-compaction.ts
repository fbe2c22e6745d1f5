import type { Entry, MessageEntry, SummaryEntry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries, type ThreadIndex } from '../entries/thread-index'
import type { ContextPolicy } from '../policy/policy'
import { turnWindowFloor } from '../project/turns'
import { unitOf, unitSeqs, type Unit, type UnitContext } from '../project/units'

/** What a compaction would cover, decided from the thread alone. */
export interface CompactionPlan {
  /** The new summary covers `fromSeq..toSeq`. */
  readonly fromSeq: number
  readonly toSeq: number
  readonly previous: SummaryEntry | undefined
  /** Entries after the previous summary for the summarizer (no pinned units, no context ops, no summaries). */
  readonly entries: readonly Entry[]
  /** The first user message, when the new summary covers it: the task framing that must survive. */
  readonly taskFraming: MessageEntry | undefined
}

/**
 * The range the next summary may cover: from the start of visible history (or the previous
 * summary's start) up to just before the last `keepLastTurns` turns, ending before the first
 * unresolved tool call and never splitting a tool call from its results. A tool unit the previous
 * summary covers only in part is still raw history (the projector shows it whole): the range takes it
 * in whole or stops before it.
 */
export function planCompaction(thread: ThreadSource | readonly Entry[], policy: ContextPolicy): CompactionPlan | undefined {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const index: ThreadIndex = Array.isArray(thread) ? indexOfEntries(entries) : (thread as ThreadSource).index
  const firstSeq = entries[0]?.seq ?? 0
  const lastSeq = firstSeq + entries.length - 1
  const at = (seq: number): Entry | undefined => entries[seq - firstSeq]
  const visibleFrom = Math.max(firstSeq, index.resetSeq + 1)

  const { previous, fromSeq, newFrom, straddling } = summaryStart({ entries, index, at, firstSeq, lastSeq, visibleFrom })
  // Entries the previous summary already holds are not given to the summarizer again.
  const alreadySummarized = (seq: number): boolean =>
    previous !== undefined && seq >= fromSeq && seq <= previous.payload.toSeq && seq >= previous.payload.fromSeq && !straddling.has(seq)

  const turnStarts = index.userSeqs.filter((seq) => seq >= visibleFrom)
  const end = summaryEnd({ index, at, lastSeq, visibleFrom }, policy, newFrom, alreadySummarized)
  if (end < newFrom) return undefined

  const pinned = pinnedUnitSeqs(index, at, newFrom, end)
  const toSummarize: Entry[] = []
  for (let seq = newFrom; seq <= end; seq++) {
    const entry = at(seq)
    if (entry === undefined || entry.kind === 'context_op' || entry.kind === 'summary' || pinned.has(seq) || alreadySummarized(seq)) continue
    // A late result of a call from before the last reset is never projected: it is not history to summarize.
    if (entry.kind === 'tool_result' && (index.callSeqByToolCallId.get(entry.refs.toolCallId as string) ?? -1) < visibleFrom) continue
    toSummarize.push(entry)
  }
  if (toSummarize.length === 0) return undefined

  const firstUserSeq = turnStarts[0]
  const firstUser = firstUserSeq === undefined ? undefined : at(firstUserSeq)
  const taskFraming =
    firstUser?.kind === 'message' && firstUser.seq >= fromSeq && firstUser.seq <= end && !pinned.has(firstUser.seq) ? firstUser : undefined
  return { fromSeq, toSeq: end, previous, entries: toSummarize, taskFraming }
}

/** The thread as `planCompaction` reads it. */
interface PlanSource {
  readonly index: ThreadIndex
  readonly at: (seq: number) => Entry | undefined
  readonly lastSeq: number
  readonly visibleFrom: number
}

/**
 * Where the next summary starts: after the latest visible summary (which it replaces, so its range
 * starts where that one did), or at the start of visible history.
 */
function summaryStart(source: PlanSource & { readonly entries: readonly Entry[]; readonly firstSeq: number }): {
  previous: SummaryEntry | undefined
  fromSeq: number
  newFrom: number
  straddling: Set<number>
} {
  const { entries, index, at, firstSeq, lastSeq, visibleFrom } = source
  let previous: SummaryEntry | undefined
  for (let position = index.summarySeqs.length - 1; position >= 0 && previous === undefined; position--) {
    const candidate = at(index.summarySeqs[position] as number)
    if (candidate?.kind === 'summary' && candidate.seq >= visibleFrom && candidate.payload.toSeq >= visibleFrom) previous = candidate
  }
  let fromSeq = previous === undefined ? visibleFrom : Math.max(previous.payload.fromSeq, visibleFrom)
  let newFrom = previous === undefined ? visibleFrom : previous.payload.toSeq + 1
  // A summary written by hand, imported or made by older code can start or end inside a tool unit.
  // The projector keeps such a unit raw and whole, so it has not been summarized: the new summary
  // takes it in whole, from its first member, and its calls are checked like any other raw history.
  const straddling = new Set<number>()
  if (previous !== undefined) {
    const coveredTo = previous.payload.toSeq
    const covered = (seq: number): boolean => seq >= fromSeq && seq <= coveredTo
    const context: UnitContext = { entries, index, firstSeq, visibleFrom, toolsIncluded: true }
    const units = new Map<string, Unit>()
    const checked = new Set<string>()
    for (let seq = visibleFrom; seq <= lastSeq; seq++) {
      const entry = at(seq)
      const unit = entry === undefined ? undefined : unitOf(context, entry, units)
      if (unit === undefined || checked.has(unit.key)) continue
      checked.add(unit.key)
      const members = unitSeqs(unit).filter((member) => member >= visibleFrom)
      if (!members.some(covered) || members.every(covered)) continue
      newFrom = Math.min(newFrom, members[0] as number)
      for (const member of members) straddling.add(member)
    }
    fromSeq = Math.min(fromSeq, newFrom)
  }
  return { previous, fromSeq, newFrom, straddling }
}

/** The last seq the next summary may cover: before the protected turns, unresolved calls and split tool units. */
function summaryEnd(source: PlanSource, policy: ContextPolicy, newFrom: number, alreadySummarized: (seq: number) => boolean): number {
  const { index, at, lastSeq, visibleFrom } = source
  // The projector's own rule for the protected zone, so the two can never disagree.
  let end = Math.min(lastSeq, turnWindowFloor(policy.keepLastTurns, index.userSeqs, visibleFrom, false) - 1)

  const unitStart = (callId: string | undefined, seq: number): number => {
    const members = callId === undefined ? undefined : index.seqsByCallId.get(callId)
    return members === undefined || members.length === 0 ? seq : Math.min(seq, members[0] as number)
  }
  // Unresolved calls stay raw until they are answered.
  for (const toolCallId of index.unresolvedToolCallIds) {
    const callSeq = index.callSeqByToolCallId.get(toolCallId) as number
    if (callSeq < newFrom || alreadySummarized(callSeq)) continue
    end = Math.min(end, unitStart(at(callSeq)?.refs.callId, callSeq) - 1)
  }
  // A tool call and its results are summarized together or not at all.
  let moved = true
  while (moved && end >= newFrom) {
    moved = false
    for (let seq = newFrom; seq <= end; seq++) {
      const entry = at(seq)
      if (entry?.kind !== 'tool_call') continue
      const resultSeq = index.resultSeqByToolCallId.get(entry.refs.toolCallId as string)
      if (resultSeq !== undefined && resultSeq > end) {
        end = unitStart(entry.refs.callId, seq) - 1
        moved = true
        break
      }
    }
  }
  return end
}

/** Seqs of every member of a pinned unit within `from..to` (pinned entries are never summarized). */
function pinnedUnitSeqs(index: ThreadIndex, at: (seq: number) => Entry | undefined, from: number, to: number): Set<number> {
  const seqs = new Set<number>()
  for (const pinnedSeq of index.pinnedSeqs) {
    if (pinnedSeq < from || pinnedSeq > to) continue
    const entry = at(pinnedSeq)
    if (entry === undefined) continue
    seqs.add(pinnedSeq)
    const toolCallId = entry.refs.toolCallId
    const callId = entry.kind === 'tool_result' ? at(index.callSeqByToolCallId.get(toolCallId as string) ?? -1)?.refs.callId : entry.refs.callId
    const callSeqs =
      callId === undefined
        ? toolCallId === undefined
          ? []
          : [index.callSeqByToolCallId.get(toolCallId) ?? -1]
        : (index.seqsByCallId.get(callId) ?? [])
    for (const member of callSeqs) {
      seqs.add(member)
      const memberEntry = at(member)
      if (memberEntry?.kind === 'tool_call') {
        const resultSeq = index.resultSeqByToolCallId.get(memberEntry.refs.toolCallId as string)
        if (resultSeq !== undefined) seqs.add(resultSeq)
      }
    }
  }
  return seqs
}
