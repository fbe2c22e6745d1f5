import type { Entry } from '../entries/entry'
import { embedChecked, type EmbedFailure, type Embedder, type EmbedOutcome } from './embedder'
import { recallText } from './recall-index'
import { recallable } from './vector-ranking'

// Embedding ahead of projection: the entries that have no vector yet, in batches, and the query.
// A batch is kept whole or not at all, so a failure never leaves a half-written index.

/** Query vectors kept: the few newest queries prepared (a retry or a second projection finds them). */
const KEPT_QUERIES = 8

/** What the hybrid index holds besides its lexical index. */
export interface VectorState {
  /** Normalised vectors by entry id (not seq: a rebuilt lexical index, or another thread, keeps them). */
  readonly vectors: Map<string, Float32Array>
  /** Normalised query vectors by query text (trimmed), oldest first. */
  readonly queries: Map<string, Float32Array>
  /** The length of every vector kept; `undefined` until the first is kept (or given as an option). */
  dimensions: number | undefined
}

export interface PrepareSettings {
  readonly embed: Embedder
  readonly timeoutMs: number
  readonly batchSize: number
  readonly maxBatches: number
  readonly maxCharacters: number
}

interface PrepareProgress {
  /** Ids of the entries embedded by this call, in seq order (persist their vectors: `vectors()`). */
  readonly embedded: readonly string[]
  /** Entries given that still have no vector (more than `maxBatches` batches, or a failure): call `prepare` again. */
  readonly remaining: number
  /** Whether the query has a vector now: `search` for it fuses both rankings; otherwise it is lexical only. */
  readonly queryReady: boolean
}

/** What `prepare` did; `ok: false` says why a call failed (the vectors it would have given are not kept). */
export type PrepareResult = (PrepareProgress & { readonly ok: true }) | (PrepareProgress & { readonly ok: false } & EmbedFailure)

/** The key a query's vector is kept under: `search` looks it up by the same. */
export function queryKey(query: string): string {
  return query.trim()
}

/** The vectors of one call, kept only when their length is still the one the index holds (another call may have set it meanwhile). */
function commit(state: VectorState, outcome: EmbedOutcome): EmbedOutcome {
  if (!outcome.ok) return outcome
  const width = (outcome.vectors[0] as Float32Array).length
  if (state.dimensions !== undefined && width !== state.dimensions) {
    return {
      ok: false,
      reason: 'wrong-dimension',
      error: new Error(`the vectors have ${width} numbers; the index holds vectors of ${state.dimensions}`),
    }
  }
  state.dimensions = width
  return outcome
}

/** Entries with a searchable text and no vector yet, in seq order, with the text to embed. */
function unembedded(state: VectorState, entries: readonly Entry[], maxCharacters: number): { id: string; text: string }[] {
  const waiting: { id: string; text: string }[] = []
  for (const entry of entries) {
    if (!recallable(entry) || state.vectors.has(entry.id)) continue
    const text = recallText(entry)?.slice(0, maxCharacters).trim()
    if (text !== undefined && text !== '') waiting.push({ id: entry.id, text })
  }
  return waiting
}

async function embedQuery(state: VectorState, settings: PrepareSettings, key: string): Promise<EmbedFailure | undefined> {
  const dimensions = (): number | undefined => state.dimensions
  const outcome = commit(state, await embedChecked(settings.embed, [key.slice(0, settings.maxCharacters)], settings.timeoutMs, dimensions))
  if (!outcome.ok) return outcome
  state.queries.delete(key)
  state.queries.set(key, outcome.vectors[0] as Float32Array)
  for (const oldest of state.queries.keys()) {
    if (state.queries.size <= KEPT_QUERIES) break
    state.queries.delete(oldest)
  }
  return undefined
}

/** Up to `maxBatches` batches, one after another, each kept whole; stops at the first failure. */
async function embedEntries(
  state: VectorState,
  settings: PrepareSettings,
  waiting: readonly { id: string; text: string }[],
): Promise<{ embedded: string[]; failure?: EmbedFailure }> {
  const embedded: string[] = []
  const dimensions = (): number | undefined => state.dimensions
  for (let batch = 0; batch < settings.maxBatches && batch * settings.batchSize < waiting.length; batch++) {
    const slice = waiting.slice(batch * settings.batchSize, (batch + 1) * settings.batchSize)
    const texts = slice.map((item) => item.text)
    const outcome = commit(state, await embedChecked(settings.embed, texts, settings.timeoutMs, dimensions))
    if (!outcome.ok) return { embedded, failure: outcome }
    slice.forEach((item, position) => {
      state.vectors.set(item.id, outcome.vectors[position] as Float32Array)
      embedded.push(item.id)
    })
  }
  return { embedded }
}

/**
 * Embeds the entries that have no vector yet (oldest first, at most `maxBatches` batches) and the
 * query unless it has one already; the query's call runs beside the entries' so a failing batch
 * does not keep it from being ready. The first failure is reported (an entry batch's before the query's).
 */
export async function prepareVectors(
  state: VectorState,
  settings: PrepareSettings,
  entries: readonly Entry[],
  query: string,
): Promise<PrepareResult> {
  const key = queryKey(query)
  const waiting = unembedded(state, entries, settings.maxCharacters)
  const queryCached = key !== '' && state.queries.has(key)
  if (queryCached) {
    // Keep it among the newest.
    const vector = state.queries.get(key) as Float32Array
    state.queries.delete(key)
    state.queries.set(key, vector)
  }
  const [queryFailure, entriesDone] = await Promise.all([
    key === '' || queryCached ? undefined : embedQuery(state, settings, key),
    embedEntries(state, settings, waiting),
  ])
  const progress: PrepareProgress = {
    embedded: entriesDone.embedded,
    remaining: waiting.length - entriesDone.embedded.length,
    queryReady: key !== '' && state.queries.has(key),
  }
  const failure = entriesDone.failure ?? queryFailure
  return failure === undefined ? { ok: true, ...progress } : { ok: false, ...progress, reason: failure.reason, error: failure.error }
}
