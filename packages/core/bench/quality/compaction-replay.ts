import {
  compact,
  decideCompaction,
  extractiveSummarizer,
  project,
  type ContextPolicy,
  type EntryInput,
  type Thread,
  type TokenCounter,
} from '../../src/index'
import { emptyThread } from './locomo-data'
import type { RecallSearcher } from './recall-loader'

// Compaction as a session runs it: after each user message is appended, project, and when
// decideCompaction says so, compact once and append what it returns (the agent's ContextFitting
// does the same before each model call). Done once per conversation, policy and budget on a copy of
// the thread; the questions are then asked of the compacted copy.

export interface CompactedThread {
  readonly thread: Thread
  /** The same turn's seq in the copy (summaries shift the seqs after them). */
  readonly diaIdBySeq: Map<number, string>
  readonly compactions: number
  readonly failures: number
  readonly ms: number
}

const summarizer = extractiveSummarizer()

export async function compactedCopy(
  id: string,
  inputs: readonly { readonly input: EntryInput; readonly createdAt: number; readonly diaId: string | undefined }[],
  policy: ContextPolicy,
  counter: TokenCounter,
  recall?: RecallSearcher,
): Promise<CompactedThread> {
  const started = performance.now()
  const { thread, setTime } = emptyThread(id)
  const diaIdBySeq = new Map<number, string>()
  let compactions = 0
  let failures = 0
  for (const { input, createdAt, diaId } of inputs) {
    setTime(createdAt)
    const entry = thread.append(input)
    if (diaId !== undefined) diaIdBySeq.set(entry.seq, diaId)
    if (!(input.kind === 'message' && input.payload.role === 'user')) continue
    const request = { thread, policy, counter, ...(recall === undefined ? {} : { recall }) } as Parameters<typeof project>[0]
    const projection = project(request)
    if (decideCompaction(projection, policy).action !== 'compact') continue
    const result = await compact({ ...request, projection, summarizer })
    if (result.status === 'summarized') compactions++
    if (result.status === 'failed') failures++
    if (result.entries.length > 0) thread.appendMany(result.entries)
  }
  return { thread, diaIdBySeq, compactions, failures, ms: performance.now() - started }
}
