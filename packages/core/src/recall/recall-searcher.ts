import { recallPhaseKey } from '../project/recall-types'
import type { RecallSearch, RecallSearcher } from '../project/types'
import { recallPhase } from './recall-block'

/**
 * Your own search (embeddings, a server, a database) as what `project()` takes as `recall`: it ranks,
 * the projector builds the block from its hits. Its `search` must be deterministic.
 */
export function recallSearcher(search: RecallSearch): RecallSearcher {
  return {
    search: (request) => search.search(request),
    terms: (text) => search.terms(text),
    [recallPhaseKey]: recallPhase,
  }
}
