import type { Entry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { ThreadlensError } from '../errors/threadlens-error'
import { recallPhaseKey } from '../project/recall-types'
import type { RecallHit, RecallRequest, RecallSearcher } from '../project/types'
import { recallPhase } from './recall-block'
import { checkVectors, type EmbedFailure, type Embedder, type EmbeddingVector } from './embedder'
import { prepareVectors, queryKey, type PrepareResult, type PrepareSettings, type VectorState } from './prepare-vectors'
import { createRecallIndex, type RecallIndex, type RecallIndexOptions } from './recall-index'
import { fuseRankings, similarityRanking } from './vector-ranking'

export interface HybridRecallIndexOptions {
  /** The app's embedder (a provider's embeddings API, a model in a worker). Core does no I/O: it only calls this. */
  readonly embed: Embedder
  /** The length of every vector. Default: that of the first vector kept (or loaded). */
  readonly dimensions?: number
  /** Each embedder call is given up (its signal aborted) after this many milliseconds. Default 10 000. */
  readonly timeoutMs?: number
  /** Entries per embedder call. Default 64. */
  readonly batchSize?: number
  /** Embedder calls for entries in one `prepare`; what is left waits for the next (`remaining`). Default 4. */
  readonly maxBatches?: number
  /** An entry ranks by meaning only when its cosine similarity to the query is above this. Default 0. */
  readonly minSimilarity?: number
  /** Text of one entry (or query) past this many characters is not embedded (embedding APIs limit their input). Default 4000. */
  readonly maxCharacters?: number
  /** Options of the inner full-text index (`createRecallIndex`). */
  readonly lexical?: RecallIndexOptions
}

/**
 * A `RecallSearcher` ranking by words and by meaning: `await prepare(entries, query)` before
 * `project()`, then pass the index as `recall`.
 */
export interface HybridRecallIndex extends RecallSearcher {
  /**
   * Embeds the entries that have no vector yet (in batches, a bounded number per call) and the
   * query: the text `project()` will search for, the newest user message (with `queryTurns` > 1,
   * the newest user messages joined by newlines). An embedder that fails does not make it reject:
   * it resolves with `ok: false` and the reason, keeps nothing of the failed call, and `search`
   * stays lexical where vectors lack. Calls run one at a time, in order.
   */
  prepare(thread: ThreadSource | readonly Entry[], query?: string): Promise<PrepareResult>
  /** Why the newest `prepare` failed; `undefined` when it succeeded (or none ran). */
  readonly lastFailure: EmbedFailure | undefined
  /** The vector length in use; `undefined` until one is known. */
  readonly dimensions: number | undefined
  /** The inner full-text index. */
  readonly lexical: RecallIndex
  /** The entries' vectors by entry id (normalised), to persist beside the entries; do not change them. */
  vectors(): ReadonlyMap<string, Float32Array>
  /**
   * Vectors persisted earlier, by entry id (from the same embedder and model): kept as they are
   * checked, each on its own; a vector of another length, or holding a non-finite number, is rejected.
   */
  loadVectors(vectors: Iterable<readonly [string, EmbeddingVector]>): { readonly loaded: number; readonly rejected: number }
}

/** Above this many hits asked for, each ranking gives as many; below, this many take part in the fusion. */
const FUSION_DEPTH = 100

function checkedOptions(options: HybridRecallIndexOptions): PrepareSettings & { readonly minSimilarity: number } {
  const whole = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback
    if (!Number.isInteger(value) || value <= 0)
      throw new ThreadlensError(`createHybridRecallIndex: ${name} must be a whole number above 0 (got ${String(value)})`)
    return value
  }
  if (typeof options.embed !== 'function')
    throw new ThreadlensError('createHybridRecallIndex: embed must be a function (texts, { signal }) => Promise<vectors>')
  whole('dimensions', options.dimensions, 1)
  const minSimilarity = options.minSimilarity ?? 0
  if (!Number.isFinite(minSimilarity))
    throw new ThreadlensError(`createHybridRecallIndex: minSimilarity must be a finite number (got ${String(minSimilarity)})`)
  return {
    embed: options.embed,
    timeoutMs: whole('timeoutMs', options.timeoutMs, 10_000),
    batchSize: whole('batchSize', options.batchSize, 64),
    maxBatches: whole('maxBatches', options.maxBatches, 4),
    maxCharacters: whole('maxCharacters', options.maxCharacters, 4000),
    minSimilarity,
  }
}

/**
 * Hybrid recall: full-text (BM25+, an inner `createRecallIndex`) fused with cosine similarity of
 * the app's embeddings by reciprocal rank fusion (k = 60). `project()` is synchronous, so embedding
 * happens before it, in `prepare`; `search` for a query that was not prepared, or where entries
 * have no vectors, ranks by words alone. Vectors are kept by entry id; `vectors()` and
 * `loadVectors()` persist them. One index per thread, like `createRecallIndex`.
 */
export function createHybridRecallIndex(options: HybridRecallIndexOptions): HybridRecallIndex {
  const settings = checkedOptions(options)
  const lexical = createRecallIndex(options.lexical)
  const state: VectorState = { vectors: new Map(), queries: new Map(), dimensions: options.dimensions }
  let lastFailure: EmbedFailure | undefined
  // One prepare at a time: two overlapping calls would embed the same entries twice.
  let queue: Promise<unknown> = Promise.resolve()

  const prepare = (thread: ThreadSource | readonly Entry[], query = ''): Promise<PrepareResult> => {
    const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
    const run = queue.then(async () => {
      const result = await prepareVectors(state, settings, entries, query)
      lastFailure = result.ok ? undefined : { reason: result.reason, error: result.error }
      return result
    })
    queue = run.catch(() => undefined)
    return run
  }

  const search = (request: RecallRequest): readonly RecallHit[] => {
    const depth = Math.max(request.limit, FUSION_DEPTH)
    const words = lexical.search({ ...request, limit: depth })
    const query = state.queries.get(queryKey(request.query))
    if (request.limit <= 0 || query === undefined) return words.slice(0, Math.max(0, request.limit))
    const { entries, from, before } = request
    const meaning = similarityRanking({ entries, query, vectors: state.vectors, from, before, minSimilarity: settings.minSimilarity, limit: depth })
    if (meaning.length === 0) return words.slice(0, request.limit)
    return fuseRankings(words, meaning, request.limit)
  }

  const loadVectors = (vectors: Iterable<readonly [string, EmbeddingVector]>): { loaded: number; rejected: number } => {
    let loaded = 0
    let rejected = 0
    for (const [id, vector] of vectors) {
      const outcome = checkVectors([vector], 1, state.dimensions)
      if (!outcome.ok || typeof id !== 'string') {
        rejected++
        continue
      }
      const kept = outcome.vectors[0] as Float32Array
      state.dimensions = kept.length
      state.vectors.set(id, kept)
      loaded++
    }
    return { loaded, rejected }
  }

  return {
    [recallPhaseKey]: recallPhase,
    prepare,
    search,
    loadVectors,
    terms: (text) => lexical.terms(text),
    vectors: () => new Map(state.vectors),
    get lastFailure() {
      return lastFailure
    },
    get dimensions() {
      return state.dimensions
    },
    lexical,
  }
}

export type { EmbedFailure, EmbedFailureReason, Embedder, EmbeddingVector } from './embedder'
export type { PrepareResult } from './prepare-vectors'
