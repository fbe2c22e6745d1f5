import type { CallRecord, Entry } from '@threadlens/core'
import { costIfKnown } from './model-prices'
import type { CallAttempt, CallAttemptStatus, ThreadCall } from '@threadlens/core/calls'
import { entryPreview } from './entry-preview'
import { formatNumber } from './meter-parts'
import { oneLine } from './message-preview'

/** One row of the Calls tab's trace: an answered (or cut short) call on the thread, or an attempt from the call log. */
export type TraceRow =
  | {
      readonly kind: 'call'
      readonly key: string
      readonly status: CallAttemptStatus
      readonly call: ThreadCall
      readonly record: CallRecord | undefined
    }
  | { readonly kind: 'attempt'; readonly key: string; readonly status: CallAttemptStatus; readonly attempt: CallAttempt; readonly record: CallRecord }

/**
 * The figures of a request, whichever record has them: the one stored on the thread or in the call
 * log, else what the session recorded (an app whose calls run on a server may record only that).
 */
export interface CallFigures {
  readonly model?: string | undefined
  readonly inputTokens?: number | undefined
  readonly outputTokens?: number | undefined
  readonly cachedInputTokens?: number | undefined
  readonly cacheWriteInputTokens?: number | undefined
  readonly localInputTokens?: number | undefined
  readonly sentMessages?: number | undefined
  readonly startedAt?: number | undefined
  readonly firstTokenMs?: number | undefined
  readonly durationMs?: number | undefined
  readonly attempts?: number | undefined
}

/** A row's figures: its stored record, else the session's record of the call. */
export function rowFigures(row: TraceRow): CallFigures | undefined {
  if (row.record !== undefined) return row.record
  const recorded = row.kind === 'call' ? row.call.record : undefined
  if (recorded === undefined) return undefined
  const usage = recorded.usage
  return {
    model: recorded.model,
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
    cachedInputTokens: usage?.cachedInputTokens,
    cacheWriteInputTokens: usage?.cacheWriteInputTokens,
    localInputTokens: recorded.localInputTokens,
    startedAt: recorded.startedAt,
  }
}

const startOf = (call: ThreadCall): number | undefined => call.record?.stored?.startedAt ?? call.record?.startedAt

/**
 * Every attempt in the order sent: each call's failed and retried attempts just before it, attempts
 * of calls that never reached the thread where their start time puts them (at the end without one).
 */
export function traceRows(calls: readonly ThreadCall[], attempts: readonly CallAttempt[]): TraceRow[] {
  const callIds = new Set(calls.map((call) => call.callId))
  const byCall = new Map<string, CallAttempt[]>()
  const orphans: CallAttempt[] = []
  for (const attempt of attempts) {
    if (!callIds.has(attempt.callId)) orphans.push(attempt)
    else {
      let list = byCall.get(attempt.callId)
      if (list === undefined) byCall.set(attempt.callId, (list = []))
      list.push(attempt)
    }
  }
  const rows: TraceRow[] = []
  const attemptRow = (attempt: CallAttempt): TraceRow => ({
    kind: 'attempt',
    key: `a:${attempt.id}`,
    status: attempt.status,
    attempt,
    record: attempt.record,
  })
  let orphan = 0
  for (const call of calls) {
    const start = startOf(call)
    while (start !== undefined && orphan < orphans.length && ((orphans[orphan] as CallAttempt).record.startedAt ?? Number.POSITIVE_INFINITY) < start)
      rows.push(attemptRow(orphans[orphan++] as CallAttempt))
    const own = byCall.get(call.callId) ?? []
    const stored = call.record?.stored
    const logged = new Set(own.map((attempt) => attempt.attempt))
    for (const attempt of own) rows.push(attemptRow(attempt))
    // A reply cut short by an error is also in the log, with its error: show it once, from the log.
    if (stored !== undefined && logged.has(stored.attempts ?? 1)) continue
    const status: CallAttemptStatus = stored?.stopReason === 'abort' || stored?.stopReason === 'error' ? 'aborted' : 'ok'
    rows.push({ kind: 'call', key: `c:${call.callId}`, status, call, record: stored })
  }
  while (orphan < orphans.length) rows.push(attemptRow(orphans[orphan++] as CallAttempt))
  return rows
}

/**
 * What a row of the trace is compared with: the request sent just before it (another call, or the
 * previous try of the same call), and the newest answered request before it (what a provider's
 * prompt cache can hold: a request that failed or was stopped may have written nothing).
 */
export function rowNeighbours(
  rows: readonly TraceRow[],
  index: number,
): { readonly previous: TraceRow | undefined; readonly answered: TraceRow | undefined } {
  let answered: TraceRow | undefined
  for (let before = index - 1; before >= 0 && answered === undefined; before--) if (rows[before]?.status === 'ok') answered = rows[before]
  return { previous: index > 0 ? rows[index - 1] : undefined, answered }
}

/** `+3.1%`: how far the provider's count is from the local one. */
export function countDifference(record: CallFigures | undefined): string | undefined {
  if (record?.inputTokens === undefined || record.localInputTokens === undefined || record.localInputTokens === 0) return undefined
  const difference = (record.inputTokens - record.localInputTokens) / record.localInputTokens
  return `${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(1)}%`
}

/** What a call cost at its model's list prices (cache reads and writes at theirs); `undefined` without usage or a known price. */
export function callCost(record: CallFigures | undefined): number | undefined {
  if (record?.model === undefined || record.inputTokens === undefined || record.outputTokens === undefined) return undefined
  // Prices come with core's model table, loaded apart (`useModelPrices`): until then no cost is shown.
  return costIfKnown(
    {
      inputTokens: record.inputTokens,
      outputTokens: record.outputTokens,
      ...(record.cachedInputTokens === undefined ? {} : { cachedInputTokens: record.cachedInputTokens }),
      ...(record.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: record.cacheWriteInputTokens }),
    },
    record.model,
  )
}

/** `$0.0123`, `<$0.0001`, or `—` when unknown. */
export function formatCost(dollars: number | undefined): string {
  if (dollars === undefined) return '—'
  if (dollars > 0 && dollars < 0.0001) return '<$0.0001'
  return dollars >= 1 ? `$${dollars.toFixed(2)}` : `$${dollars.toFixed(4)}`
}

/** `40 / 0`: prompt tokens read from the provider's cache / written to it; `—` when not reported. */
export function cacheFigures(record: CallFigures | undefined): string {
  if (record?.cachedInputTokens === undefined && record?.cacheWriteInputTokens === undefined) return '—'
  const figure = (tokens: number | undefined) => (tokens === undefined ? '—' : formatNumber(tokens))
  return `${figure(record.cachedInputTokens)} / ${figure(record.cacheWriteInputTokens)}`
}

/**
 * The steps of a call that ran several in one request (a tool loop on a server), in order, one line
 * each: `tool-calls · 1,200 in, 40 out, 1,000 cached · first token 310 ms · took 900 ms`.
 */
export function stepLines(record: CallRecord | undefined): string[] {
  return (record?.steps ?? []).map((step) => {
    const tokens =
      step.inputTokens === undefined || step.outputTokens === undefined
        ? 'usage not reported'
        : `${formatNumber(step.inputTokens)} in, ${formatNumber(step.outputTokens)} out${step.cachedInputTokens === undefined ? '' : `, ${formatNumber(step.cachedInputTokens)} cached`}${step.cacheWriteInputTokens === undefined ? '' : `, ${formatNumber(step.cacheWriteInputTokens)} written to cache`}`
    return `${step.stopReason} · ${tokens} · first token ${duration(step.firstTokenMs)} · took ${duration(step.durationMs)}`
  })
}

/** `12:04:05` (UTC) from ms since the epoch. */
export function clockTime(at: number | undefined): string {
  return at === undefined ? '—' : new Date(at).toISOString().slice(11, 19)
}

/** `180 ms` / `2.4 s`. */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return '—'
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`
}

/** How far back from a request's basis the label looks for the user message it answers. */
const QUESTION_LOOKBACK = 64

function askedBefore(basisSeq: number, entryAt: (seq: number) => Entry | undefined): string | undefined {
  for (let seq = basisSeq - 1; seq >= Math.max(0, basisSeq - QUESTION_LOOKBACK); seq--) {
    const entry = entryAt(seq)
    if (entry?.kind === 'message' && entry.payload.role === 'user') return entry.payload.content
  }
  return undefined
}

/** The user message a row's request answered (the newest one sent before it), as one line; undefined when none is near. */
export function rowQuestion(row: TraceRow, entryAt: (seq: number) => Entry | undefined): string | undefined {
  const question = askedBefore(row.kind === 'call' ? row.call.firstSeq : row.attempt.record.basisSeq, entryAt)
  return question === undefined ? undefined : oneLine(question, 160)
}

/** A row's detail subtitle: the question it answered, then its call and request ids. */
export function rowSubtitle(row: TraceRow, entryAt: (seq: number) => Entry | undefined): string {
  const question = rowQuestion(row, entryAt)
  const { callId, requestId } = row.kind === 'call' ? row.call : row.attempt
  return `${question === undefined ? '' : `for “${question}” · `}call ${callId}${requestId === undefined ? '' : ` · request ${requestId}`}`
}

/**
 * A row's words instead of its call id: what an answered call wrote (its reply or tool calls), or,
 * for an attempt that did not answer, its error and the question it was sent for. Plain text.
 */
export function traceLabel(row: TraceRow, entryAt: (seq: number) => Entry | undefined): string {
  if (row.kind === 'call') {
    const written = row.call.seqs.map(entryAt).filter((entry): entry is Entry => entry !== undefined)
    const reply = written.find((entry) => entry.kind === 'message')
    const calls = written.filter((entry) => entry.kind === 'tool_call')
    const text =
      reply !== undefined
        ? entryPreview(reply)
        : calls.length > 0
          ? calls.map(entryPreview).join(', ')
          : written[0] === undefined
            ? ''
            : entryPreview(written[0])
    return oneLine(text === '' ? `call ${row.call.callId}` : text, 120)
  }
  const question = askedBefore(row.attempt.record.basisSeq, entryAt)
  const error =
    row.attempt.error === undefined
      ? row.status
      : `${row.attempt.error.status === undefined ? row.attempt.error.name : `HTTP ${row.attempt.error.status}`}: ${row.attempt.error.message}`
  return oneLine(question === undefined ? error : `${error} · for “${question}”`, 120)
}
