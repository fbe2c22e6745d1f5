/** @threadlens/core/recall: full-text and hybrid (embedding) recall over a thread, for `policy.recall` (pass the index to `project()` as `recall`). */

export type { RecallIndex, RecallIndexOptions, RecallTermsRow } from '../recall/recall-index'
export { createRecallIndex, InvalidRecallTermsError } from '../recall/recall-index'
export { entryRecallTerms, RECALL_TERMS_VERSION, recallText } from '../recall/entry-terms'
export { recallTerms } from '../recall/recall-terms'
export type {
  EmbedFailure,
  EmbedFailureReason,
  Embedder,
  EmbeddingVector,
  HybridRecallIndex,
  HybridRecallIndexOptions,
  PrepareResult,
} from '../recall/hybrid-recall-index'
export { createHybridRecallIndex } from '../recall/hybrid-recall-index'
export type { RecallHit, RecallMeta, RecallRequest, RecallSearch, RecallSearcher, RecallSkip } from '../project/types'
export { recallQuery } from '../recall/recall-block'
export { recallDate, recallLineParts } from '../recall/recall-lines'
export { recallSearcher } from '../recall/recall-searcher'
