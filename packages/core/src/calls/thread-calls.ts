import type { Entry } from '../entries/entry'
import type { Thread } from '../entries/thread'
import { readRecordedCalls, type RecordedCall } from './recorded-call'

/** One past model call of a thread, derived from the entries that share its `refs.callId`. */
export interface ThreadCall {
  readonly callId: string
  /** 0 for the thread's first call, then 1, 2, … in order of first entry. */
  readonly ordinal: number
  readonly requestId: string | undefined
  readonly iteration: number | undefined
  readonly parentCallId: string | undefined
  /** Seq of the call's first entry: the call's input is the thread before it. */
  readonly firstSeq: number
  readonly lastSeq: number
  /** Seqs the call wrote (its assistant text and tool calls; tool results when they carry the callId). */
  readonly seqs: readonly number[]
  /** Tool calls the model made in this call. */
  readonly toolCallCount: number
  /** The recorded details, when the session gave them. */
  readonly record: RecordedCall | undefined
}

const cache = new WeakMap<Thread, Map<readonly RecordedCall[] | undefined, readonly ThreadCall[]>>()

/**
 * The model calls of a thread, oldest first, grouped by `refs.callId`, with the session's
 * records merged in by `callId`. Memoised per thread version and records array.
 */
export function threadCalls(thread: Thread, records?: readonly RecordedCall[]): readonly ThreadCall[] {
  let byRecords = cache.get(thread)
  if (byRecords === undefined) cache.set(thread, (byRecords = new Map()))
  const cached = byRecords.get(records)
  if (cached !== undefined) return cached
  const calls = deriveCalls(thread.entries, records)
  byRecords.set(records, calls)
  return calls
}

/** `threadCalls` over a plain entry array (not memoised). */
export function deriveCalls(entries: readonly Entry[], records?: readonly RecordedCall[]): ThreadCall[] {
  // Records on the thread first; an application's records (fresher, maybe fuller) are merged over them.
  const recordById = new Map<string, RecordedCall>()
  for (const record of readRecordedCalls(entries)) recordById.set(record.callId, record)
  for (const record of records ?? []) recordById.set(record.callId, { ...recordById.get(record.callId), ...record })
  const groups = new Map<string, Entry[]>()
  for (const entry of entries) {
    const callId = entry.refs.callId
    if (callId === undefined) continue
    let group = groups.get(callId)
    if (group === undefined) groups.set(callId, (group = []))
    group.push(entry)
  }
  const calls: ThreadCall[] = []
  for (const [callId, group] of groups) {
    const first = group[0] as Entry
    const last = group[group.length - 1] as Entry
    calls.push({
      callId,
      ordinal: calls.length,
      requestId: group.find((entry) => entry.refs.requestId !== undefined)?.refs.requestId,
      iteration: first.refs.iteration,
      parentCallId: first.refs.parentCallId,
      firstSeq: first.seq,
      lastSeq: last.seq,
      seqs: group.map((entry) => entry.seq),
      toolCallCount: group.filter((entry) => entry.kind === 'tool_call').length,
      record: recordById.get(callId),
    })
  }
  return calls
}
