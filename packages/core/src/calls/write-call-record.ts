import type { Entry, JsonObject } from '../entries/entry'
import type { ContextPolicy } from '../policy/policy'
import type { ProjectionResult } from '../project/types'
import type { TokenCounter, ToolSchema } from '../tokens/token-counter'
import { hashJson } from '../utils/hash'
import type { Usage } from './usage'
import { maxCallSteps, type CallRecord, type CallStep } from './call-record'

/** Hashes already stored in a thread's call records (so each policy, tool list and memory text is stored once). */
export class StoredHashes {
  readonly #seen = new Set<string>()

  addFrom(entries: readonly Entry[]): void {
    for (const entry of entries) {
      const call = entry.meta?.call
      if (call === undefined) continue
      if (call.policy !== undefined) this.#seen.add(`p:${call.policyHash}`)
      if (call.tools !== undefined) this.#seen.add(`t:${call.toolsHash}`)
      if (call.memory !== undefined && call.memoryHash !== undefined) this.#seen.add(`m:${call.memoryHash}`)
    }
  }

  has(kind: 'p' | 't' | 'm', hash: string): boolean {
    return this.#seen.has(`${kind}:${hash}`)
  }
}

/** Timing of a call, in ms (see `CallRecord`). */
export interface CallTiming {
  readonly startedAt: number
  readonly firstTokenMs?: number | undefined
  /** Absent while the call is still running (a record written when the request is sent). */
  readonly durationMs?: number | undefined
  readonly attempts?: number
}

export interface CallRecordOptions {
  readonly model: string
  readonly provider: string
  readonly counter: TokenCounter
  readonly policy: ContextPolicy
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  readonly basisSeq: number
  /** What the thread already holds: those parts are referenced by hash only. */
  readonly stored: StoredHashes
  readonly stopReason: string
  readonly usage: Usage | undefined
  readonly timing?: CallTiming
  /** Hashes of `policy`, `tools`, `memory` and the messages, when the caller has them already (one call, several attempts). */
  readonly hashes?: CallHashes
}

export interface CallHashes {
  readonly policyHash: string
  readonly toolsHash: string
  readonly memoryHash: string | undefined
  readonly messagesHash: string
}

/** Hashes one request's parts once, for all the records of its attempts. */
export function callHashes(options: Pick<CallRecordOptions, 'policy' | 'tools' | 'memory' | 'projection'>): CallHashes {
  return {
    policyHash: hashJson(options.policy),
    toolsHash: hashJson(options.tools),
    memoryHash: options.memory === undefined ? undefined : hashJson(options.memory),
    messagesHash: hashJson(options.projection.messages),
  }
}

const copyJson = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T

/** A record's token fields for `usage` (none when the provider reported none). */
function usageFields(usage: Usage | undefined): Pick<CallRecord, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteInputTokens'> {
  if (usage === undefined) return {}
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
    ...(usage.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: usage.cacheWriteInputTokens }),
  }
}

/** The record for one call (or attempt): what is new is stored inline, what the thread already holds by hash. */
export function callRecord(options: CallRecordOptions): CallRecord {
  const { policyHash, toolsHash, memoryHash, messagesHash } = options.hashes ?? callHashes(options)
  const usage = options.usage
  const timing = options.timing
  return {
    model: options.model,
    provider: options.provider,
    counter: options.counter.id,
    policyHash,
    ...(options.stored.has('p', policyHash) ? {} : { policy: copyJson<JsonObject>(options.policy) }),
    toolsHash,
    ...(options.stored.has('t', toolsHash) ? {} : { tools: copyJson<JsonObject[]>(options.tools) }),
    ...(memoryHash === undefined ? {} : { memoryHash }),
    ...(memoryHash === undefined || options.stored.has('m', memoryHash) ? {} : { memory: options.memory as string }),
    basisSeq: options.basisSeq,
    messagesHash,
    ...usageFields(usage),
    localInputTokens: options.projection.meta.tokens.total,
    sentMessages: options.projection.messages.length,
    ...projectionFacts(options.projection.meta),
    stopReason: options.stopReason,
    ...(timing === undefined
      ? {}
      : {
          startedAt: timing.startedAt,
          ...(timing.firstTokenMs === undefined ? {} : { firstTokenMs: timing.firstTokenMs }),
          ...(timing.durationMs === undefined ? {} : { durationMs: timing.durationMs }),
          ...(timing.attempts === undefined ? {} : { attempts: timing.attempts }),
        }),
  }
}

/** What the devtools mark on a call: whether recall brought entries back and which summary stood in. */
function projectionFacts(meta: ProjectionResult['meta']): Pick<CallRecord, 'recalledEntries' | 'summarySeq'> {
  const recalled = meta.recall?.seqs.length ?? 0
  return {
    ...(recalled === 0 ? {} : { recalledEntries: recalled }),
    ...(meta.summaryUsed && meta.summary !== undefined ? { summarySeq: meta.summary.seq } : {}),
  }
}

/** How a call ended, as reported after its record was written (a server that ran the model). */
export interface CallOutcome {
  readonly stopReason: string
  /** The call's tokens (over all its steps). */
  readonly usage?: Usage | undefined
  readonly firstTokenMs?: number | undefined
  readonly durationMs?: number | undefined
  /** Each model step, when the call ran more than one. */
  readonly steps?: readonly CallStep[] | undefined
  /** The model that answered, when the record could not name it when it was written. */
  readonly model?: string | undefined
}

/**
 * A record written when its request was sent (stop reason `unknown`, no usage), completed with how
 * the call ended: usage, stop reason, timings and steps replace what the record had for them;
 * what was sent (hashes, policy, basis) stays.
 */
export function completeCallRecord(record: CallRecord, outcome: CallOutcome): CallRecord {
  const { usage, steps } = outcome
  const {
    inputTokens: _inputTokens,
    outputTokens: _outputTokens,
    cachedInputTokens: _cached,
    cacheWriteInputTokens: _written,
    firstTokenMs: _firstTokenMs,
    durationMs: _durationMs,
    steps: _steps,
    ...sent
  } = record
  return {
    ...sent,
    ...(outcome.model === undefined ? {} : { model: outcome.model }),
    ...usageFields(usage),
    stopReason: outcome.stopReason,
    ...(outcome.firstTokenMs === undefined ? {} : { firstTokenMs: outcome.firstTokenMs }),
    ...(outcome.durationMs === undefined ? {} : { durationMs: outcome.durationMs }),
    ...(steps === undefined || steps.length < 2 ? {} : { steps: copyJson<CallStep[]>(steps.slice(0, maxCallSteps)) }),
  }
}
