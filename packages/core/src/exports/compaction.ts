/** @threadlens/core/compaction: the parts of compaction (budget, plan, truncation of tool output) for a loop of your own. */

export type { CompactionFailure } from '../events'
export type { TruncateOptions, TruncateResult } from '../text/truncate'
export { truncateHead, truncateTail, truncateHeadTail } from '../text/truncate'
export type { ToolResultInputOptions } from '../compaction/tool-output'
export { toolResultInput } from '../compaction/tool-output'
export type { CompactionDecision, CompactionDecisionOptions } from '../compaction/budget'
export { ContextTokenBudget, assertFits } from '../compaction/budget'
export type { SummarizeInput } from '../compaction/summarizer'
export type { CompactOptions, CompactionPlan, CompactionResult } from '../compaction/compact'
export { planCompaction } from '../compaction/compact'
