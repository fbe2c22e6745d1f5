/** @threadlens/core/compaction: the parts of compaction (budget, plan, truncation of tool output) for a loop of your own. */

export type { CompactionFailure } from '../events'
export type { TruncateOptions, TruncateResult } from '../text/truncate'
export { truncateHead, truncateTail, truncateHeadTail } from '../text/truncate'
export type { ToolResultInputOptions } from './tool-output'
export { toolResultInput } from './tool-output'
export type { CompactionDecision, CompactionDecisionOptions } from './budget'
export { ContextTokenBudget, assertFits } from './budget'
export type { SummarizeInput } from './summarizer'
export type { CompactOptions, CompactionPlan, CompactionResult } from './compact'
export { planCompaction } from './compact'
