import type { Entry, EntryInput } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import type { CompactionFailure, ThreadlensEvent } from '../events'
import { project } from '../project/project'
import type { ProjectInput, ProjectionResult } from '../project/types'
import { planCompaction } from './plan-compaction'
import type { Summarizer } from './summarizer'

export { planCompaction } from './plan-compaction'
export type { CompactionPlan } from './plan-compaction'

/**
 * What to compact, and the request it is for: give the same `tools`, `memory` and `pending` the
 * request projects with, and `tokensBefore`/`tokensAfter` are that request's `meta.tokens.total`,
 * the figure the token meter shows.
 */
export interface CompactOptions extends ProjectInput {
  readonly summarizer: Summarizer
  /**
   * The projection of this same input, when the caller already made it (to decide to compact):
   * it is the "before", and compaction projects only once, for the "after". Default: projected here.
   */
  readonly projection?: ProjectionResult
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
  // Repeated on purpose: the 'compaction-end' event in packages/core/src/events.ts reports these fields, spelled out there too.
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

const FRAMING_PREFIX = "The user's first message, verbatim:\n"

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
  const request: ProjectInput = { thread: options.thread, policy, counter, ...requestParts(options) }
  const tokensBefore = (options.projection ?? project(request)).meta.tokens.total
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

  const tokensAfter = project({ ...request, thread: withAppended(entries, appended) }).meta.tokens.total
  const contentTokens = counter.count(content)
  emit({ type: 'compaction-end', threadId, fromSeq: plan.fromSeq, toSeq: plan.toSeq, tokensBefore, tokensAfter, summaryTokens: contentTokens })
  return {
    status: 'summarized',
    entries: appended,
    fromSeq: plan.fromSeq,
    toSeq: plan.toSeq,
    tokensBefore,
    tokensAfter,
    summaryTokens: contentTokens,
  }
}

/** The parts of the request besides thread, policy and counter that were given. */
function requestParts(options: CompactOptions): Pick<ProjectInput, 'tools' | 'memory' | 'pending'> {
  return {
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.pending === undefined ? {} : { pending: options.pending }),
  }
}

/** Entries as they would be after appending `inputs` (for measuring, never stored). */
function withAppended(entries: readonly Entry[], inputs: readonly EntryInput[]): Entry[] {
  const last = entries[entries.length - 1]
  const threadId = last?.threadId ?? ''
  let seq = last === undefined ? 0 : last.seq + 1
  return [
    ...entries,
    ...inputs.map(
      (input) => ({ id: `preview-${seq}`, threadId, seq: seq++, kind: input.kind, payload: input.payload, refs: {}, createdAt: 0 }) as Entry,
    ),
  ]
}

/** Rejects as soon as the signal aborts, even if the promise never settles. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    // Settled first, then the listener goes: an abort in between finds the promise already settled.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
