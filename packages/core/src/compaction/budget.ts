import { BudgetOverflowError } from '../errors/threadlens-error'
import type { ContextPolicy } from '../policy/policy'
import { summaryThreshold } from '../project/summary-threshold'
import type { ProjectionResult } from '../project/types'

/** A context window's accounting at one moment. */
export class ContextTokenBudget {
  /** Total context window (input + output). */
  readonly contextWindow: number
  /** Tokens of conversation content: history, summary, memory and pending messages. */
  readonly used: number
  /** Kept free for the reply. */
  readonly reservedOutput: number
  /** Fixed per request: system prompt, reply priming and tool schemas. */
  readonly reservedSystem: number
  /** `used` at or above this calls for compaction. */
  readonly softThreshold: number

  constructor(fields: { contextWindow: number; used: number; reservedOutput: number; reservedSystem: number; softThreshold: number }) {
    this.contextWindow = fields.contextWindow
    this.used = fields.used
    this.reservedOutput = fields.reservedOutput
    this.reservedSystem = fields.reservedSystem
    this.softThreshold = fields.softThreshold
  }

  /** Tokens still free for conversation content. */
  remaining(): number {
    return remainingOf(this)
  }

  overSoftThreshold(): boolean {
    return this.used >= this.softThreshold
  }

  /** The budget of a projection under its policy. */
  static of(result: ProjectionResult, policy: ContextPolicy): ContextTokenBudget {
    return new ContextTokenBudget(budgetFields(result, policy))
  }
}

type BudgetFields = Pick<ContextTokenBudget, 'contextWindow' | 'used' | 'reservedOutput' | 'reservedSystem' | 'softThreshold'>

// `decideCompaction` (core's main entry) works on these plain numbers, so an app that never uses
// `ContextTokenBudget` (the compaction subpath) does not download the class.
function budgetFields(result: ProjectionResult, policy: ContextPolicy): BudgetFields {
  const { tokens } = result.meta
  const reservedSystem = tokens.system + tokens.tools
  return {
    contextWindow: policy.maxInputTokens,
    used: tokens.total - reservedSystem,
    reservedOutput: policy.reserveOutputTokens,
    reservedSystem,
    softThreshold: summaryThreshold(policy.maxInputTokens - policy.reserveOutputTokens, reservedSystem, policy.summarizeAtRatio),
  }
}

function remainingOf(budget: BudgetFields): number {
  return Math.max(0, budget.contextWindow - budget.used - budget.reservedOutput - budget.reservedSystem)
}

export type CompactionDecision =
  | { readonly action: 'none' }
  | { readonly action: 'compact'; readonly reason: 'over-soft-threshold' | 'low-headroom' | 'history-dropped' | 'overflow' }

export interface CompactionDecisionOptions {
  /** Compact when fewer than this many tokens remain free. Default 0. */
  readonly minHeadroom?: number
}

/**
 * Whether to compact now: over the soft threshold, below the minimum headroom, or when the
 * projection already had to drop history or overflowed.
 */
export function decideCompaction(result: ProjectionResult, policy: ContextPolicy, options: CompactionDecisionOptions = {}): CompactionDecision {
  // `meta.needsSummaryReason` is the one verdict (see `summaryThreshold`); only the headroom is extra.
  const reason = result.meta.needsSummaryReason
  if (reason === 'overflow' || reason === 'history-dropped') return { action: 'compact', reason }
  if (reason === 'over-threshold') return { action: 'compact', reason: 'over-soft-threshold' }
  if (remainingOf(budgetFields(result, policy)) < (options.minHeadroom ?? 0)) return { action: 'compact', reason: 'low-headroom' }
  return { action: 'none' }
}

/** The hard stop: throws `BudgetOverflowError` when a projection overflowed (call it after compaction). */
export function assertFits(result: ProjectionResult): void {
  if (result.meta.overflow) throw new BudgetOverflowError(result.meta.tokens.total, result.meta.budget.input)
}
