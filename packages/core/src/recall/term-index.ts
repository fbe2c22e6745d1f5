// An inverted index over numbered documents (a thread's entries, by seq) and BM25+ ranking over it.
// Postings are plain arrays in document order, so a search over a range of documents reads only the
// postings inside it, and the cost of a search is the postings of the terms it asks for: no objects
// are made per posting. Scores are those of MiniSearch (BM25+ over the document's distinct terms,
// prefix matches weighted down by how much longer the word is, a document's score times the number
// of query terms it matched); the tests hold it to MiniSearch on random threads.

import { PREFIX_WEIGHT, type Bm25Parameters } from './bm25'

/** Distinct query terms one search looks up, at most. */
export const MAX_QUERY_TERMS = 1024

/** A term's documents, ascending, with how often it occurs in each. */
interface Postings {
  readonly documents: number[]
  readonly counts: number[]
}

export interface TermSearch {
  /** Terms to find (folded already); each counts once, the first `MAX_QUERY_TERMS` distinct ones. */
  readonly terms: readonly string[]
  /** Whether a query term also finds the longer terms it starts. */
  readonly prefix: (term: string) => boolean
  /** Only documents in `from <= document < before`. */
  readonly from: number
  readonly before: number
  /** At most this many matches, best first. */
  readonly limit: number
  readonly bm25: Bm25Parameters
}

export interface TermMatch {
  readonly document: number
  readonly score: number
  /** The document's terms that matched, sorted. */
  readonly terms: readonly string[]
}

/** Per-document accumulators of a search: the BM25 sum, the query terms matched, the query term counted last (1-based). */
interface Scratch {
  readonly scores: Float64Array
  readonly matched: Uint16Array
  readonly lastQuery: Uint16Array
  /** Which of the first 32 matching terms are in the document, one bit each. */
  readonly found: Uint32Array
}

/** The first position in `sorted` whose value is not below `value`. */
function lowerBound<T>(sorted: readonly T[], value: T): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as T) < value) low = middle + 1
    else high = middle
  }
  return low
}

/** The `limit` best documents by score, best first, ties newest first: one pass, the few best kept sorted. */
function bestOf(documents: readonly number[], scoreOf: (document: number) => number, limit: number): { document: number; score: number }[] {
  const worse = (a: { document: number; score: number }, b: { document: number; score: number }): boolean =>
    a.score < b.score || (a.score === b.score && a.document < b.document)
  // Many asked for: a sort is cheaper than keeping that many in order one by one.
  if (limit > 256) {
    const all = documents.map((document) => ({ document, score: scoreOf(document) }))
    return all.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0)).slice(0, limit)
  }
  const best: { document: number; score: number }[] = []
  for (const document of documents) {
    const candidate = { document, score: scoreOf(document) }
    if (best.length === limit && !worse(best[limit - 1] as typeof candidate, candidate)) continue
    let position = best.length === limit ? limit - 1 : best.length
    while (position > 0 && worse(best[position - 1] as typeof candidate, candidate)) {
      best[position] = best[position - 1] as typeof candidate
      position--
    }
    best[position] = candidate
  }
  return best
}

/**
 * Documents added in ascending order, each with its terms (duplicates counted). Nothing is ever
 * removed: a thread is append-only, and an index that disagrees with it is made again.
 */
export class TermIndex {
  readonly #postings = new Map<string, Postings>()
  /** Every term, in code-unit order, for prefix lookups; terms new since the last search wait in `#unsorted`. */
  #sorted: string[] = []
  #unsorted: string[] = []
  /** Distinct terms of each document, by document number (the BM25 length). */
  readonly #lengths: number[] = []
  #documents = 0
  #totalLength = 0
  #last = -1
  #scratch: Scratch = { scores: new Float64Array(0), matched: new Uint16Array(0), lastQuery: new Uint16Array(0), found: new Uint32Array(0) }

  /** Documents added. */
  get documents(): number {
    return this.#documents
  }

  /** Documents `term` occurs in. */
  frequency(term: string): number {
    return this.#postings.get(term)?.documents.length ?? 0
  }

  has(document: number): boolean {
    return this.#lengths[document] !== undefined
  }

  /** Adds a document after every one added so far; a document with no terms still counts (as MiniSearch counts it). */
  add(document: number, terms: readonly string[]): void {
    if (!Number.isSafeInteger(document) || document <= this.#last) throw new RangeError(`document ${document} must be an integer above ${this.#last}`)
    const counts = new Map<string, number>()
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    for (const [term, count] of counts) {
      let postings = this.#postings.get(term)
      if (postings === undefined) {
        this.#postings.set(term, (postings = { documents: [], counts: [] }))
        this.#unsorted.push(term)
      }
      postings.documents.push(document)
      postings.counts.push(count)
    }
    this.#lengths[document] = counts.size
    this.#documents += 1
    this.#totalLength += counts.size
    this.#last = document
  }

  /** The documents matching any of the terms, best first (ties: newest first), at most `limit`. */
  search(request: TermSearch): TermMatch[] {
    if (request.limit <= 0 || this.#documents === 0 || request.from >= request.before) return []
    const averageLength = this.#totalLength / this.#documents
    const scratch = this.#scratchFor(this.#last + 1)
    /** Documents scored, each once; their scratch slots are cleared before returning. */
    const touched: number[] = []
    /** The terms that matched some document, to find each returned document's own matched terms. */
    const derivedTerms: string[] = []
    const { scores, matched, lastQuery, found } = scratch
    const lengths = this.#lengths
    const { k, b, d } = request.bm25
    const lengthWeight = (k * b) / averageLength
    const lengthFloor = k * (1 - b)
    ;[...new Set(request.terms)].slice(0, MAX_QUERY_TERMS).forEach((query, queryNumber) => {
      const queryMark = queryNumber + 1
      for (const [term, weight] of this.#derived(query, request.prefix(query))) {
        const { documents, counts } = this.#postings.get(term) as Postings
        const start = lowerBound(documents, request.from)
        const end = lowerBound(documents, request.before)
        if (start === end) continue
        // The first 32 terms that match mark the documents they are in (the rest are looked up for the returned documents).
        const bit = derivedTerms.length < 32 ? 2 ** derivedTerms.length : 0
        derivedTerms.push(term)
        // BM25+ of `term` (see `bm25Score`), its inverse document frequency worked out once.
        const termWeight = weight * Math.log(1 + (this.#documents - documents.length + 0.5) / (documents.length + 0.5))
        for (let position = start; position < end; position++) {
          const document = documents[position] as number
          const count = counts[position] as number
          if (matched[document] === 0) touched.push(document)
          scores[document] =
            (scores[document] as number) + termWeight * (d + (count * (k + 1)) / (count + lengthFloor + lengthWeight * (lengths[document] as number)))
          if (bit !== 0) found[document] = ((found[document] as number) | bit) >>> 0
          // A document's score counts the query terms it matched (by any of the terms each one finds).
          if (lastQuery[document] !== queryMark) {
            lastQuery[document] = queryMark
            matched[document] = (matched[document] as number) + 1
          }
        }
      }
    })
    const best = bestOf(touched, (document) => (scores[document] as number) * (matched[document] as number), request.limit)
    const results = best.map(({ document, score }) => ({ document, score, terms: this.#termsOf(document, derivedTerms, found[document] as number) }))
    for (const document of touched) {
      scores[document] = 0
      matched[document] = 0
      lastQuery[document] = 0
      found[document] = 0
    }
    return results
  }

  /** Per-document scratch space for a search, zeroed, at least `size` long: kept between searches (they run one at a time). */
  #scratchFor(size: number): Scratch {
    if (this.#scratch.scores.length < size) {
      const length = Math.max(size, this.#scratch.scores.length * 2)
      this.#scratch = {
        scores: new Float64Array(length),
        matched: new Uint16Array(length),
        lastQuery: new Uint16Array(length),
        found: new Uint32Array(length),
      }
    }
    return this.#scratch
  }

  /** The terms a query term finds, with their weights: itself, and with `prefix` the longer terms it starts. */
  #derived(query: string, prefix: boolean): [string, number][] {
    const derived: [string, number][] = this.#postings.has(query) ? [[query, 1]] : []
    if (!prefix) return derived
    this.#sort()
    for (let position = lowerBound(this.#sorted, query); position < this.#sorted.length; position++) {
      const term = this.#sorted[position] as string
      if (!term.startsWith(query)) break
      if (term.length > query.length) derived.push([term, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - query.length))])
    }
    return derived
  }

  /** A document's matched terms: the first 32 of `candidates` from its marks, the others looked up in their postings. */
  #termsOf(document: number, candidates: readonly string[], marks: number): string[] {
    const terms = new Set<string>()
    candidates.forEach((term, position) => {
      if (position < 32) {
        if ((marks & (2 ** position)) !== 0) terms.add(term)
        return
      }
      const documents = (this.#postings.get(term) as Postings).documents
      if (documents[lowerBound(documents, document)] === document) terms.add(term)
    })
    return [...terms].sort()
  }

  /** Brings the new terms into the sorted list: one by one when few, by a merge when many. */
  #sort(): void {
    if (this.#unsorted.length === 0) return
    const added = this.#unsorted.sort()
    this.#unsorted = []
    if (added.length < 32) {
      for (const term of added) this.#sorted.splice(lowerBound(this.#sorted, term), 0, term)
      return
    }
    const merged: string[] = []
    let left = 0
    let right = 0
    while (left < this.#sorted.length || right < added.length) {
      if (right >= added.length || (left < this.#sorted.length && (this.#sorted[left] as string) < (added[right] as string)))
        merged.push(this.#sorted[left++] as string)
      else merged.push(added[right++] as string)
    }
    this.#sorted = merged
  }
}
