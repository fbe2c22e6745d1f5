import type { Entry } from '@threadlens/core'
import { z } from 'zod/mini'

/** The summary checkpoint a projection of the whole thread would use. */
export interface SummaryFact {
  readonly seq: number
  readonly fromSeq: number
  readonly toSeq: number
}

/**
 * What a windowed load must know about a thread without reading it: kept on the thread's row and
 * updated in the same transaction as every append, so it is never out of step with the entries.
 */
export interface ThreadFacts {
  /** Seq of the newest `reset` op, or -1: nothing before it is ever projected. */
  readonly resetSeq: number
  /** Seq of the newest user message, or -1 (the projection's anchor). */
  readonly lastUserSeq: number
  /** The newest summary that covers something after the newest reset, or `null`. */
  readonly summary: SummaryFact | null
  /** Seqs pinned now (by `meta.pinned` or pin/unpin ops), ascending; pins hidden by a reset are dropped. */
  readonly pinnedSeqs: readonly number[]
}

const seqSchema = z.int().check(z.gte(-1))

export const threadFactsSchema: z.ZodMiniType<ThreadFacts> = z.strictObject({
  resetSeq: seqSchema,
  lastUserSeq: seqSchema,
  summary: z.nullable(z.strictObject({ seq: seqSchema, fromSeq: seqSchema, toSeq: seqSchema })),
  pinnedSeqs: z.array(z.int().check(z.nonnegative())),
})

export const emptyThreadFacts: ThreadFacts = { resetSeq: -1, lastUserSeq: -1, summary: null, pinnedSeqs: [] }

/**
 * Folds entries (the next ones in seq order) into the facts, as the projector's thread index
 * would: same reset, summary and pin rules (see `newestSummary` and `indexEntry` in core).
 */
export function foldThreadFacts(facts: ThreadFacts, entries: readonly Entry[]): ThreadFacts {
  let { resetSeq, lastUserSeq, summary } = facts
  const pinned = new Set(facts.pinnedSeqs)
  for (const entry of entries) {
    if (entry.meta?.pinned === true) pinned.add(entry.seq)
    switch (entry.kind) {
      case 'message':
        if (entry.payload.role === 'user') lastUserSeq = entry.seq
        break
      case 'summary':
        // A summary that only covers hidden entries is skipped by the projector; the older one stays in use.
        if (entry.payload.toSeq > resetSeq) summary = { seq: entry.seq, fromSeq: entry.payload.fromSeq, toSeq: entry.payload.toSeq }
        break
      case 'context_op':
        if (entry.payload.op === 'reset') {
          resetSeq = entry.seq
          summary = null
          for (const seq of pinned) if (seq < resetSeq) pinned.delete(seq)
        } else if (entry.payload.op === 'pin') {
          const target = entry.payload.target as number
          if (target > resetSeq) pinned.add(target)
        } else {
          pinned.delete(entry.payload.target as number)
        }
        break
      default:
        break
    }
  }
  return { resetSeq, lastUserSeq, summary, pinnedSeqs: [...pinned].sort((a, b) => a - b) }
}
