/** @threadlens/core/compaction: the parts of compaction (budget, plan, truncation of tool output) for a loop of your own. */

export type { CompactionFailure } from '../events'
export type { TruncateOptions, TruncateResult } from '../text/truncate'
export { truncateHead, truncateTail, truncateHeadTail } from '../text/truncate'
export type { ToolResultInputOptions } from '../compact/tool-output'
export { toolResultInput } from '../compact/tool-output'
export type { CompactionDecision, CompactionDecisionOptions } from '../compact/budget'
export { ContextTokenBudget, assertFits } from '../compact/budget'
export type { SummarizeInput } from '../compact/summarizer'
export type { CompactOptions, CompactionPlan, CompactionResult } from '../compact/compact'
export { planCompaction } from '../compact/compact'
