// BM25+, the ranking of full-text recall over a thread (`TermIndex`) and over memory (`queryMemory`).

/** BM25+ parameters: term-frequency saturation `k`, length normalisation `b`, floor `d`. */
export interface Bm25Parameters {
  readonly k: number
  readonly b: number
  readonly d: number
}

/** MiniSearch's defaults, which the recall benches were measured with. */
export const defaultBm25: Bm25Parameters = { k: 1.2, b: 0.7, d: 0.5 }

/** The weight of a match by prefix (`adopt` finding `adoption`) at distance 0; it falls as the word gets longer. */
export const PREFIX_WEIGHT = 0.375

/** BM25+ of one term in one document: `count` occurrences, in `withTerm` of `documents` documents. */
export function bm25Score(
  count: number,
  withTerm: number,
  documents: number,
  length: number,
  averageLength: number,
  parameters: Bm25Parameters,
): number {
  const { k, b, d } = parameters
  const inverseFrequency = Math.log(1 + (documents - withTerm + 0.5) / (withTerm + 0.5))
  return inverseFrequency * (d + (count * (k + 1)) / (count + k * (1 - b + (b * length) / averageLength)))
}
