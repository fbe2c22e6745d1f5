import type { Entry } from '../entries/entry'
import type { RecallHit } from '../project/types'

/** The reciprocal rank fusion constant: a hit at rank r (from 1) adds 1 / (k + r) to its score. */
export const RRF_K = 60

/** An entry ranked by meaning: the cosine similarity of its vector to the query's. */
export interface SimilarityHit {
  readonly seq: number
  readonly similarity: number
}

/** Whether recall searches this kind of entry at all (`recallText` gives it a text). */
export function recallable(entry: Entry): boolean {
  return entry.kind === 'message' || entry.kind === 'tool_call' || entry.kind === 'tool_result'
}

/** The dot product of two vectors of one length (their cosine, both being normalised). */
function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let position = 0; position < a.length; position++) sum += (a[position] as number) * (b[position] as number)
  return sum
}

export interface SimilarityRequest {
  readonly entries: readonly Entry[]
  readonly query: Float32Array
  readonly vectors: ReadonlyMap<string, Float32Array>
  readonly from: number
  readonly before: number
  /** Only entries more similar than this rank. */
  readonly minSimilarity: number
  readonly limit: number
}

/** Entries with `from <= seq < before` that have a vector, most similar to the query first (ties: newest first), at most `limit`. */
export function similarityRanking(request: SimilarityRequest): SimilarityHit[] {
  const hits: SimilarityHit[] = []
  for (const entry of request.entries) {
    if (entry.seq < request.from || entry.seq >= request.before || !recallable(entry)) continue
    const vector = request.vectors.get(entry.id)
    if (vector === undefined || vector.length !== request.query.length) continue
    const similarity = dot(vector, request.query)
    if (similarity > request.minSimilarity) hits.push({ seq: entry.seq, similarity })
  }
  hits.sort((a, b) => b.similarity - a.similarity || b.seq - a.seq)
  return hits.slice(0, request.limit)
}

/**
 * Reciprocal rank fusion of the lexical and the similarity rankings: each entry scores the sum of
 * 1 / (k + rank) over the rankings it is in; best first, ties newest first, at most `limit`. A hit
 * keeps the terms it matched lexically (none when only its meaning matched).
 */
export function fuseRankings(lexical: readonly RecallHit[], semantic: readonly SimilarityHit[], limit: number, k = RRF_K): RecallHit[] {
  const fused = new Map<number, { score: number; terms: readonly string[] }>()
  const add = (seq: number, rank: number, terms: readonly string[]): void => {
    const hit = fused.get(seq)
    if (hit === undefined) fused.set(seq, { score: 1 / (k + rank + 1), terms })
    else hit.score += 1 / (k + rank + 1)
  }
  lexical.forEach((hit, rank) => add(hit.seq, rank, hit.terms))
  semantic.forEach((hit, rank) => add(hit.seq, rank, []))
  const hits = [...fused].map(([seq, hit]) => ({ seq, score: hit.score, terms: hit.terms }))
  hits.sort((a, b) => b.score - a.score || b.seq - a.seq)
  return hits.slice(0, Math.max(0, limit))
}
