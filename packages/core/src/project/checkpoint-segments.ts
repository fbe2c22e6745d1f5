import type { SummaryEntry } from '../entries/entry'
import type { ThreadIndex } from '../entries/thread-index'
import { renderPolicyMemory } from '../memory/request-memory'
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter'
import type { ProjectionContext } from './projection-context'
import type { ProjectionMeta } from './types'
import { entryAt, type UnitContext } from './units'

/** The summary checkpoint and the memory segment, each in when it fits what is left. */
export interface CheckpointSegments {
  /** The newest summary the window can use, used or not. */
  readonly summaryEntry: SummaryEntry | undefined
  readonly summaryUsed: boolean
  /** Whether the summary was offered its place (else it was left out because everything it covers fit). */
  readonly summaryTried: boolean
  readonly summaryTokens: number
  readonly summaryText: string
  /** The seqs the summary in use stands for (`0..-1` without one). */
  readonly coveredFrom: number
  readonly coveredTo: number
  readonly memoryTokens: number
  readonly memoryText: string
  readonly memoryMeta: ProjectionMeta['memory']
  /** Tokens left for history after them. */
  readonly remaining: number
}

/**
 * `withSummary: false` leaves the newest summary out (reported as `summaryEntry`, not used): a
 * summary stands in only for entries that do not fit, so `project()` first tries without it.
 */
export function fitCheckpoints(context: ProjectionContext, remainingBefore: number, withSummary: boolean): CheckpointSegments {
  const { input, include, index, visibleFrom } = context
  const { policy, counter } = input
  let remaining = remainingBefore
  const summaryEntry = include.has('summary') ? newestSummary(context, index) : undefined
  let summaryUsed = false
  let summaryTokens = 0
  let summaryText = ''
  if (summaryEntry !== undefined && withSummary) {
    summaryText = policy.summaryPrefix + summaryEntry.payload.content
    const cost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(summaryText)
    if (cost <= remaining) {
      summaryUsed = true
      summaryTokens = cost
      remaining -= cost
    }
  }

  let memoryTokens = 0
  const rendered = typeof input.memory === 'object' ? renderPolicyMemory(input.memory, policy, counter) : undefined
  const memoryText = rendered?.text ?? (input.memory as string | undefined) ?? ''
  if (memoryText !== '') {
    const cost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(memoryText)
    if (cost <= remaining) {
      memoryTokens = cost
      remaining -= cost
    }
  }
  const memoryMeta =
    input.memory === undefined
      ? undefined
      : {
          rev: rendered?.rev,
          spaces: memoryTokens > 0 ? (rendered?.spaces ?? []) : [],
          omitted: memoryTokens > 0 ? (rendered?.omitted ?? []) : [...(rendered?.spaces ?? []), ...(rendered?.omitted ?? [])],
          dropped: memoryText !== '' && memoryTokens === 0,
        }
  return {
    summaryEntry,
    summaryUsed,
    summaryTried: withSummary,
    summaryTokens,
    summaryText,
    coveredFrom: summaryUsed ? Math.max(visibleFrom, (summaryEntry as SummaryEntry).payload.fromSeq) : 0,
    coveredTo: summaryUsed ? (summaryEntry as SummaryEntry).payload.toSeq : -1,
    memoryTokens,
    memoryText,
    memoryMeta,
    remaining,
  }
}

function newestSummary(context: UnitContext, index: ThreadIndex): SummaryEntry | undefined {
  const seqs = index.summarySeqs
  for (let position = seqs.length - 1; position >= 0; position--) {
    const seq = seqs[position] as number
    if (seq < context.visibleFrom) return undefined
    const entry = entryAt(context, seq)
    if (entry?.kind === 'summary' && entry.payload.toSeq >= context.visibleFrom) return entry
  }
  return undefined
}
