import type { Entry, EntryInput, MessageEntry, SummaryEntry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries, type ThreadIndex } from '../entries/thread-index'
import type { CompactionFailure, ThreadlensEvent } from '../events'
import type { ContextPolicy } from '../policy/policy'
import { project } from '../project/project'
import { turnWindowFloor } from '../project/turns'
import { unitOf, unitSeqs, type Unit, type UnitContext } from '../project/units'
import type { TokenCounter } from '../tokens/token-counter'
import type { Summarizer } from './summarizer'

export interface CompactOptions {
  readonly thread: ThreadSource | readonly Entry[]
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly summarizer: Summarizer
  /** Cancels the summary; the result is then a recorded failure. */
  readonly signal?: AbortSignal
  /** Give up on the summarizer after this many milliseconds. Default: no limit. */
  readonly timeoutMs?: number
  /** Longest acceptable summary. Default: a quarter of the input budget, at most 2000. */
  readonly maxSummaryTokens?: number
  readonly onEvent?: (event: ThreadlensEvent) => void
}

export type CompactionResult =
  | { readonly status: 'nothing-to-do'; readonly entries: readonly []; readonly tokensBefore: number }
  | {
      readonly status: 'summarized'
      /** Append these (a summary, and a pin when the task framing was too long to quote). */
      readonly entries: readonly EntryInput[]
      readonly fromSeq: number
      readonly toSeq: number
      readonly tokensBefore: number
      /** Tokens of the projection once `entries` are appended, same policy. */
      readonly tokensAfter: number
      readonly summaryTokens: number
    }
  | {
      readonly status: 'failed'
      /** Append this marker: history stays as it was and projections keep using the window. */
      readonly entries: readonly EntryInput[]
      readonly reason: CompactionFailure
      readonly error: unknown
      readonly tokensBefore: number
    }

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

const FRAMING_PREFIX = "The user's first message, verbatim:\n"

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
  // Entries the previous summary already holds are not given to the summarizer again.
  const alreadySummarized = (seq: number): boolean =>
    previous !== undefined && seq >= fromSeq && seq <= previous.payload.toSeq && seq >= previous.payload.fromSeq && !straddling.has(seq)

  const turnStarts = index.userSeqs.filter((seq) => seq >= visibleFrom)
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
    const callSeqs = callId === undefined ? (toolCallId === undefined ? [] : [index.callSeqByToolCallId.get(toolCallId) ?? -1]) : (index.seqsByCallId.get(callId) ?? [])
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

/**
 * One compaction step: summarizes the oldest unprotected history with `summarizer`, continuing
 * the previous summary, and returns the entries to append. It never writes and never rewrites:
 * append `result.entries` (thread.appendMany / store.appendMany). A failed, timed-out, empty or
 * too-long summary yields a `compaction-failed` marker instead; an error text never becomes a summary.
 */
export async function compact(options: CompactOptions): Promise<CompactionResult> {
  const { policy, counter, summarizer } = options
  const entries: readonly Entry[] = Array.isArray(options.thread) ? (options.thread as readonly Entry[]) : (options.thread as ThreadSource).entries
  const threadId = entries[0]?.threadId ?? ''
  const emit = options.onEvent ?? (() => undefined)
  const tokensBefore = project({ thread: options.thread, policy, counter }).meta.tokens.total
  const plan = planCompaction(options.thread, policy)
  if (plan === undefined) return { status: 'nothing-to-do', entries: [], tokensBefore }

  const budget = policy.maxInputTokens - policy.reserveOutputTokens
  const maxTokens = options.maxSummaryTokens ?? Math.max(1, Math.min(2000, Math.floor(budget / 4)))
  emit({ type: 'compaction-start', threadId, fromSeq: plan.fromSeq, toSeq: plan.toSeq, entryCount: plan.entries.length, tokensBefore })

  const fail = (reason: CompactionFailure, error: unknown): CompactionResult => {
    const message = error instanceof Error ? error.message : String(error)
    emit({ type: 'compaction-fail', threadId, reason, message })
    const marker: EntryInput = {
      kind: 'context_op',
      payload: { op: 'compaction-failed', reason: `${summarizer.name}: ${reason}: ${message}`.slice(0, 500) },
    }
    return { status: 'failed', entries: [marker], reason, error, tokensBefore }
  }

  const signals = [options.signal, options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  )
  const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals)
  let text: string
  try {
    text = await abortable(
      summarizer.summarize({
        previousSummary: plan.previous?.payload.content,
        entries: plan.entries,
        maxTokens,
        countTokens: (value) => counter.count(value),
        signal,
      }),
      signal,
    )
  } catch (error) {
    if (signal?.aborted === true) return fail(options.signal?.aborted === true ? 'aborted' : 'timeout', signal.reason ?? error)
    return fail('summarizer-error', error)
  }
  if (typeof text !== 'string' || text.trim() === '') return fail('empty', new Error('the summarizer returned no text'))
  const summaryTokens = counter.count(text)
  if (summaryTokens > maxTokens) return fail('too-long', new Error(`the summary has ${summaryTokens} tokens; at most ${maxTokens} fit`))

  // The task framing survives: quoted in the summary when short, otherwise kept raw by a pin.
  const appended: EntryInput[] = []
  let content = text
  const framing = plan.taskFraming
  if (framing !== undefined && !text.includes(framing.payload.content)) {
    if (counter.count(framing.payload.content) <= maxTokens / 2) content = `${FRAMING_PREFIX}${framing.payload.content}\n\n${text}`
    else appended.push({ kind: 'context_op', payload: { op: 'pin', target: framing.seq, reason: 'task framing, kept raw by compaction' } })
  }
  appended.push({ kind: 'summary', payload: { fromSeq: plan.fromSeq, toSeq: plan.toSeq, content } })

  const tokensAfter = project({ thread: withAppended(entries, appended), policy, counter }).meta.tokens.total
  emit({ type: 'compaction-end', threadId, fromSeq: plan.fromSeq, toSeq: plan.toSeq, tokensBefore, tokensAfter, summaryTokens: counter.count(content) })
  return { status: 'summarized', entries: appended, fromSeq: plan.fromSeq, toSeq: plan.toSeq, tokensBefore, tokensAfter, summaryTokens: counter.count(content) }
}

/** Entries as they would be after appending `inputs` (for measuring, never stored). */
function withAppended(entries: readonly Entry[], inputs: readonly EntryInput[]): Entry[] {
  const last = entries[entries.length - 1]
  const threadId = last?.threadId ?? ''
  let seq = last === undefined ? 0 : last.seq + 1
  return [
    ...entries,
    ...inputs.map((input) => ({ id: `preview-${seq}`, threadId, seq: seq++, kind: input.kind, payload: input.payload, refs: {}, createdAt: 0 }) as Entry),
  ]
}

/** Rejects as soon as the signal aborts, even if the promise never settles. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
