import { definePolicy, type ContextPolicy, type Entry, type PendingMessage, type Thread, type ToolSchema } from '@threadlens/core'

/** Tokens a provider reported for one call. */
export interface CallUsage {
  readonly inputTokens: number
  readonly outputTokens: number
  /** Input tokens the provider served from its prompt cache, when it says. */
  readonly cachedInputTokens?: number
}

/**
 * What a session recorded about one model call, beyond the entries it wrote. Every field but
 * `callId` is optional: a replay uses what is there and falls back to the inspector's policy.
 */
export interface RecordedCall {
  readonly callId: string
  /** The token counter the call was projected with (e.g. `o200k_base`). */
  readonly counter?: string
  /** The policy the call was projected with; replaying with it gives the exact messages sent. */
  readonly policy?: ContextPolicy
  readonly model?: string
  readonly usage?: CallUsage
  /** The provider's stop reason (`stop`, `tool_calls`, `end_turn`, `max_tokens`, …). */
  readonly stopReason?: string
  /** Tool schemas the request carried. */
  readonly tools?: readonly ToolSchema[]
  /** Rendered memory text the request carried. */
  readonly memory?: string
  /** Messages sent that were not in the thread yet. */
  readonly pending?: readonly PendingMessage[]
  /** Milliseconds since the epoch. */
  readonly startedAt?: number
  /** The call's input is the thread before this seq (default: the call's first entry). */
  readonly basisSeq?: number
  /** Hash of the messages the call sent, to verify a replay (core's `hashJson(messages)`). */
  readonly messagesHash?: string
}

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

/**
 * What the agent stores on a call's assistant message (`entry.meta.call`): policy, tools and memory
 * once per thread, referenced by hash after that. Read structurally, field by field, so a thread
 * written by any version of the agent (or none) still lists its calls.
 */
interface StoredCall {
  readonly model?: unknown
  readonly counter?: unknown
  readonly policyHash?: unknown
  readonly policy?: unknown
  readonly toolsHash?: unknown
  readonly tools?: unknown
  readonly memoryHash?: unknown
  readonly memory?: unknown
  readonly inputTokens?: unknown
  readonly outputTokens?: unknown
  readonly cachedInputTokens?: unknown
  readonly stopReason?: unknown
  readonly basisSeq?: unknown
  readonly messagesHash?: unknown
}

function storedCallOf(entry: Entry): StoredCall | undefined {
  const call = (entry.meta as { readonly call?: unknown } | undefined)?.call
  return typeof call === 'object' && call !== null && !Array.isArray(call) ? (call as StoredCall) : undefined
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/** The calls' records as stored on the thread, with hash references resolved. */
export function recordedCalls(entries: readonly Entry[]): RecordedCall[] {
  const policies = new Map<string, ContextPolicy | undefined>()
  const tools = new Map<string, readonly ToolSchema[]>()
  const memories = new Map<string, string>()
  const records: RecordedCall[] = []
  for (const entry of entries) {
    const stored = storedCallOf(entry)
    const callId = entry.refs.callId
    if (stored === undefined || callId === undefined) continue
    const policyHash = text(stored.policyHash)
    if (policyHash !== undefined && stored.policy !== undefined && !policies.has(policyHash)) {
      let policy: ContextPolicy | undefined
      try {
        policy = definePolicy(stored.policy as Parameters<typeof definePolicy>[0])
      } catch {
        policy = undefined // a policy this version cannot read: replay falls back, and says so
      }
      policies.set(policyHash, policy)
    }
    const toolsHash = text(stored.toolsHash)
    if (toolsHash !== undefined && Array.isArray(stored.tools)) tools.set(toolsHash, stored.tools as readonly ToolSchema[])
    const memoryHash = text(stored.memoryHash)
    if (memoryHash !== undefined && typeof stored.memory === 'string') memories.set(memoryHash, stored.memory)
    const policy = policyHash === undefined ? undefined : policies.get(policyHash)
    const callTools = toolsHash === undefined ? undefined : tools.get(toolsHash)
    const memory = memoryHash === undefined ? undefined : memories.get(memoryHash)
    const inputTokens = count(stored.inputTokens)
    const outputTokens = count(stored.outputTokens)
    const cachedInputTokens = count(stored.cachedInputTokens)
    const model = text(stored.model)
    const counter = text(stored.counter)
    const stopReason = text(stored.stopReason)
    const basisSeq = count(stored.basisSeq)
    const messagesHash = text(stored.messagesHash)
    records.push({
      ...(basisSeq === undefined ? {} : { basisSeq }),
      ...(messagesHash === undefined ? {} : { messagesHash }),
      callId,
      ...(policy === undefined ? {} : { policy }),
      ...(model === undefined ? {} : { model }),
      ...(counter === undefined ? {} : { counter }),
      ...(stopReason === undefined ? {} : { stopReason }),
      ...(callTools === undefined || callTools.length === 0 ? {} : { tools: callTools }),
      ...(memory === undefined ? {} : { memory }),
      ...(inputTokens === undefined || outputTokens === undefined
        ? {}
        : { usage: { inputTokens, outputTokens, ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }) } }),
    })
  }
  return records
}

/** `threadCalls` over a plain entry array (not memoised). */
export function deriveCalls(entries: readonly Entry[], records?: readonly RecordedCall[]): ThreadCall[] {
  // Records on the thread first; a session's records (fresher, maybe fuller) are merged over them.
  const recordById = new Map<string, RecordedCall>()
  for (const record of recordedCalls(entries)) recordById.set(record.callId, record)
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
