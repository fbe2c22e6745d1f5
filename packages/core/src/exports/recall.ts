/** @threadlens/core/recall: full-text recall over a thread, for `policy.recall` (pass the index to `project()` as `recall`). */

export type { RecallIndex, RecallIndexOptions } from '../recall/recall-index'
export { createRecallIndex, recallText } from '../recall/recall-index'
export { recallTerms } from '../recall/recall-terms'
export type { RecallHit, RecallMeta, RecallRequest, RecallSearcher, RecallSkip } from '../project/types'
