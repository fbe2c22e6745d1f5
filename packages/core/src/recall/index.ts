/** @threadlens/core/recall: full-text and hybrid (embedding) recall over a thread, for `policy.recall` (pass the index to `project()` as `recall`). */

export type { RecallIndex, RecallIndexOptions, RecallTermsRow } from './recall-index'
export { createRecallIndex, InvalidRecallTermsError } from './recall-index'
export { entryRecallTerms, RECALL_TERMS_VERSION, recallText } from './entry-terms'
export { recallTerms } from './recall-terms'
export type {
  EmbedFailure,
  EmbedFailureReason,
  Embedder,
  EmbeddingVector,
  HybridRecallIndex,
  HybridRecallIndexOptions,
  PrepareResult,
} from './hybrid-recall-index'
export { createHybridRecallIndex } from './hybrid-recall-index'
export type { RecallHit, RecallMeta, RecallRequest, RecallSearch, RecallSearcher, RecallSkip } from '../project/types'
export { recallQuery } from './recall-block'
export { recallDate, recallLineParts } from './recall-lines'
export { recallSearcher } from './recall-searcher'
