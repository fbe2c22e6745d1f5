import { compact, extractiveSummarizer, project, type ContextPolicy, type Thread, type TokenCounter } from '../src/index'
import { planCompaction, type CompactionResult } from '../src/compaction/index'
import { summarize, type Timing } from './measure'
import { coldCounter } from './o200k'

/** One compact() step on a thread, timed, and what it produced once appended. */
export interface CompactionStep {
  readonly fromSeq: number
  readonly toSeq: number
  /** Entries the summarizer was given (after the previous summary; no pins, summaries or context ops). */
  readonly entriesSummarized: number
  /** Raw tokens of those entries, as the projection would count them if sent whole. */
  readonly rawTokensSummarized: number
  /** Raw tokens of the conversation in `fromSeq..toSeq` (what the summary stands for; earlier summaries and context ops left out). */
  readonly rawTokensCovered: number
  readonly summaryTokens: number
  readonly tokensBefore: number
  /** compact()'s own preview of the projection after appending. */
  readonly tokensAfter: number
  /** project() on the thread once the entries are appended (should equal `tokensAfter`). */
  readonly projectedAfterAppend: number
  readonly messagesBefore: number
  readonly messagesAfter: number
  /** A fresh counter each run: nothing tokenized yet, as right after a page load. */
  readonly cold: Timing
  /** The same counter each run, after one untimed compact(). */
  readonly warm: Timing
}

const summarizer = extractiveSummarizer()

async function timed(runs: number, prepare: () => TokenCounter, run: (counter: TokenCounter) => Promise<unknown>): Promise<Timing> {
  const samples: number[] = []
  for (let index = 0; index < runs; index++) {
    const counter = prepare()
    const start = performance.now()
    await run(counter)
    samples.push(performance.now() - start)
  }
  return summarize(samples)
}

function rawTokens(thread: Thread, fromSeq: number, toSeq: number, counter: TokenCounter): number {
  let total = 0
  for (const entry of thread.slice(fromSeq, toSeq)) if (entry.kind !== 'summary' && entry.kind !== 'context_op') total += counter.countEntry(entry)
  return total
}

/**
 * Compacts `thread` (timed cold and warm; compact() never writes, so runs repeat the same step),
 * then appends the result so the next step continues from this summary.
 */
export async function compactionStep(thread: Thread, policy: ContextPolicy, counter: TokenCounter, runs: number): Promise<CompactionStep> {
  const compactWith = (stepCounter: TokenCounter): Promise<CompactionResult> => compact({ thread, policy, counter: stepCounter, summarizer })
  const cold = await timed(runs, coldCounter, compactWith)
  await compactWith(counter)
  let result: CompactionResult | undefined
  const warm = await timed(
    runs,
    () => counter,
    async (stepCounter) => {
      result = await compactWith(stepCounter)
    },
  )
  if (result?.status !== 'summarized')
    throw new Error(
      `[threadlens] compact() did not summarize (status ${result?.status ?? 'none'}); the bench thread should always have something to compact`,
    )
  const plan = planCompaction(thread, policy)
  if (plan === undefined) throw new Error('[threadlens] planCompaction() found nothing to compact, yet compact() summarized')
  const before = project({ thread, policy, counter })
  thread.appendMany(result.entries)
  const after = project({ thread, policy, counter })
  let rawTokensSummarized = 0
  for (const entry of plan.entries) rawTokensSummarized += counter.countEntry(entry)
  return {
    fromSeq: result.fromSeq,
    toSeq: result.toSeq,
    entriesSummarized: plan.entries.length,
    rawTokensSummarized,
    rawTokensCovered: rawTokens(thread, result.fromSeq, result.toSeq, counter),
    summaryTokens: result.summaryTokens,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    projectedAfterAppend: after.meta.tokens.total,
    messagesBefore: before.messages.length,
    messagesAfter: after.messages.length,
    cold,
    warm,
  }
}
