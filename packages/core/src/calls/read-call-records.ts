import type { Entry } from '../entries/entry'
import { definePolicy, type ContextPolicy } from '../policy/policy'
import type { ToolSchema } from '../tokens/token-counter'
import type { CallAttempt, CallAttemptError, CallAttemptStatus, CallRecord } from './call-record'

/** A call record read from a thread, with the parts it references by hash resolved. */
export interface ReadCallRecord {
  readonly callId: string
  /** Seq of the assistant message that holds the record. */
  readonly seq: number
  readonly requestId: string | undefined
  readonly record: CallRecord
  /** The policy the call used; `undefined` when it is not in the loaded entries or this version cannot read it. */
  readonly policy: ContextPolicy | undefined
  readonly tools: readonly ToolSchema[] | undefined
  readonly memory: string | undefined
  /** `aborted` when the reply was cut short (`meta.interrupted`). */
  readonly status: 'ok' | 'aborted'
}

/** Resolves the policies, tool lists and memory texts call records reference by hash. */
export class CallParts {
  readonly #policies = new Map<string, ContextPolicy | undefined>()
  readonly #tools = new Map<string, readonly ToolSchema[]>()
  readonly #memories = new Map<string, string>()

  /** Learns the parts one record carries inline. */
  add(record: CallRecord): void {
    if (record.policy !== undefined && !this.#policies.has(record.policyHash)) {
      let policy: ContextPolicy | undefined
      try {
        policy = definePolicy(record.policy as Parameters<typeof definePolicy>[0])
      } catch {
        policy = undefined // written by a version with other policy fields: replay says it cannot
      }
      this.#policies.set(record.policyHash, policy)
    }
    if (record.tools !== undefined && !this.#tools.has(record.toolsHash))
      this.#tools.set(record.toolsHash, record.tools as unknown as readonly ToolSchema[])
    if (record.memory !== undefined && record.memoryHash !== undefined) this.#memories.set(record.memoryHash, record.memory)
  }

  addFrom(entries: readonly Entry[]): this {
    for (const entry of entries) if (entry.meta?.call !== undefined) this.add(entry.meta.call)
    return this
  }

  policy(record: CallRecord): ContextPolicy | undefined {
    return this.#policies.get(record.policyHash)
  }

  tools(record: CallRecord): readonly ToolSchema[] | undefined {
    return this.#tools.get(record.toolsHash)
  }

  /** `null` when the record's memory is referenced but unknown; `undefined` when the call sent none. */
  memory(record: CallRecord): string | undefined | null {
    if (record.memoryHash === undefined) return undefined
    return this.#memories.get(record.memoryHash) ?? null
  }
}

/** The call records a thread holds (on assistant messages), oldest first, hash references resolved. */
export function readCallRecords(entries: readonly Entry[]): ReadCallRecord[] {
  const parts = new CallParts()
  const records: ReadCallRecord[] = []
  for (const entry of entries) {
    const record = entry.meta?.call
    const callId = entry.refs.callId
    if (record === undefined || callId === undefined) continue
    parts.add(record)
    const memory = parts.memory(record)
    records.push({
      callId,
      seq: entry.seq,
      requestId: entry.refs.requestId,
      record,
      policy: parts.policy(record),
      tools: parts.tools(record),
      memory: memory ?? undefined,
      status: entry.meta?.interrupted === true ? 'aborted' : 'ok',
    })
  }
  return records
}

/** One row of a thread's call trace: every HTTP attempt, answered or not, oldest first. */
export interface CallTraceRow {
  /** `${callId}#${attempt}`. */
  readonly id: string
  readonly callId: string
  readonly requestId: string | undefined
  readonly attempt: number
  readonly status: CallAttemptStatus
  readonly record: CallRecord
  readonly error: CallAttemptError | undefined
  /** Seq of the reply on the thread, for answered calls. */
  readonly seq: number | undefined
}

/**
 * Every attempt of a thread's calls: the answered ones from the thread's records, the failed,
 * retried and aborted ones from the attempts log, in the order they were sent.
 */
export function callTrace(entries: readonly Entry[], attempts: readonly CallAttempt[]): CallTraceRow[] {
  const rows: CallTraceRow[] = attempts.map((attempt) => ({
    id: attempt.id,
    callId: attempt.callId,
    requestId: attempt.requestId,
    attempt: attempt.attempt,
    status: attempt.status,
    record: attempt.record,
    error: attempt.error,
    seq: undefined,
  }))
  const logged = new Set(attempts.map((attempt) => attempt.id))
  for (const read of readCallRecords(entries)) {
    const attempt = read.record.attempts ?? 1
    // A reply cut short by an error is on the thread and in the log: one attempt, shown with its error.
    if (logged.has(`${read.callId}#${attempt}`)) continue
    rows.push({
      id: `${read.callId}#${attempt}`,
      callId: read.callId,
      requestId: read.requestId,
      attempt,
      status: read.status,
      record: read.record,
      error: undefined,
      seq: read.seq,
    })
  }
  // A call's rows stay together, in attempt order; calls in the order they started (records without a clock: by basis).
  const callStart = new Map<string, number>()
  for (const row of rows) {
    const start = row.record.startedAt ?? row.record.basisSeq
    callStart.set(row.callId, Math.min(callStart.get(row.callId) ?? Number.POSITIVE_INFINITY, start))
  }
  const order = (row: CallTraceRow): number => callStart.get(row.callId) ?? 0
  return rows.sort(
    (a, b) => order(a) - order(b) || a.record.basisSeq - b.record.basisSeq || a.callId.localeCompare(b.callId) || a.attempt - b.attempt,
  )
}
