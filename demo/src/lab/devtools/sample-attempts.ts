import { createTokenCounter, project, type ContextPolicy, type Entry } from '@threadlens/core'
import { callRecord, StoredHashes, type CallAttempt, type CallLog } from '@threadlens/core/calls'
import { createRecallIndex } from '@threadlens/core/recall'

/** The model and provider the sample's attempts name (the sample thread itself records no model). */
export const sampleModel = { id: 'gpt-4o-mini', provider: 'openai' } as const

interface SampleAttempt {
  readonly callId: string
  readonly requestId: string
  readonly attempt: number
  readonly status: CallAttempt['status']
  /** The thread before this seq is what the attempt projected. */
  readonly basisSeq: number
  /** Milliseconds after the creation of the entry just before `basisSeq`. */
  readonly after: number
  readonly firstTokenMs?: number
  readonly durationMs: number
  readonly error: NonNullable<CallAttempt['error']>
}

const rateLimited =
  'The openai server is rate limiting model "gpt-4o-mini" (HTTP 429: "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3"); send again in 2000 ms.'
const overloaded =
  'The openai server failed for model "gpt-4o-mini" (HTTP 503: "The server is overloaded or not ready yet."). This is on the provider\'s side: try again later.'

/**
 * What the call log holds beside the sample thread, as the agent would have logged it: the booking
 * request (`c10`, seq 23) was rate limited once before it answered; the last question (seq 42) has
 * no reply because its call failed twice on an overloaded server and the one sent again was stopped
 * by the user after its first token.
 */
const sampleAttempts: readonly SampleAttempt[] = [
  {
    callId: 'c10',
    requestId: 'r8',
    attempt: 1,
    status: 'retried',
    basisSeq: 23,
    after: 1_200,
    durationMs: 410,
    error: { name: 'RateLimitError', message: rateLimited, status: 429 },
  },
  {
    callId: 'c20',
    requestId: 'r15',
    attempt: 1,
    status: 'retried',
    basisSeq: 43,
    after: 900,
    durationMs: 2_350,
    error: { name: 'ProviderServerError', message: overloaded, status: 503 },
  },
  {
    callId: 'c20',
    requestId: 'r15',
    attempt: 2,
    status: 'failed',
    basisSeq: 43,
    after: 5_300,
    durationMs: 2_120,
    error: { name: 'ProviderServerError', message: overloaded, status: 503 },
  },
  {
    callId: 'c21',
    requestId: 'r15',
    attempt: 1,
    status: 'aborted',
    basisSeq: 43,
    after: 41_000,
    firstTokenMs: 640,
    durationMs: 3_400,
    error: { name: 'AbortError', message: 'The request was aborted.' },
  },
]

/**
 * The sample's call attempts, each with the record of exactly what it sent: the thread before its
 * basis projected with `policy` (no tool schemas, no memory), counted with the policy's tokenizer.
 * Each record carries its policy, as an attempt that never reached the thread does, so it replays alone.
 */
export async function sampleCallAttempts(threadId: string, entries: readonly Entry[], policy: ContextPolicy): Promise<CallAttempt[]> {
  const counter = await createTokenCounter(policy.tokenizer)
  return sampleAttempts.map((sample) => {
    const basis = entries.slice(0, sample.basisSeq)
    const startedAt = (basis[basis.length - 1]?.createdAt ?? 0) + sample.after
    const record = callRecord({
      model: sampleModel.id,
      provider: sampleModel.provider,
      counter,
      policy,
      tools: [],
      memory: undefined,
      projection: project({ thread: basis, policy, counter, tools: [], recall: createRecallIndex() }),
      basisSeq: sample.basisSeq,
      stored: new StoredHashes(),
      stopReason: sample.status === 'aborted' ? 'abort' : 'error',
      usage: undefined,
      timing: {
        startedAt,
        ...(sample.firstTokenMs === undefined ? {} : { firstTokenMs: sample.firstTokenMs }),
        durationMs: sample.durationMs,
        attempts: sample.attempt,
      },
    })
    return {
      id: `${sample.callId}#${sample.attempt}`,
      threadId,
      callId: sample.callId,
      requestId: sample.requestId,
      attempt: sample.attempt,
      status: sample.status,
      record,
      error: sample.error,
    }
  })
}

/** Logs the sample's attempts once (the call log is kept in IndexedDB across reloads). */
export async function ensureSampleAttempts(
  calls: CallLog,
  threadId: string,
  entries: () => Promise<readonly Entry[]>,
  policy: ContextPolicy,
): Promise<void> {
  if ((await calls.attempts(threadId)).length > 0) return
  for (const attempt of await sampleCallAttempts(threadId, await entries(), policy)) await calls.recordAttempt(attempt)
}
