import { contentWords } from './words'

// Okapi BM25 over a fixed list of documents (the thread's turns), with the textbook constants. Built
// once per thread and reused for every question, as a retrieval layer in an app would be.
const K1 = 1.2
const B = 0.75

export interface Bm25Index {
  /** A score per document (0 where no query word occurs), in document order. */
  score(query: string): Float64Array
}

export function bm25Index(documents: readonly string[]): Bm25Index {
  const termCounts = documents.map((text) => {
    const counts = new Map<string, number>()
    for (const word of contentWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1)
    return counts
  })
  const lengths = termCounts.map((counts) => {
    let length = 0
    for (const count of counts.values()) length += count
    return length
  })
  const averageLength = lengths.reduce((total, length) => total + length, 0) / Math.max(1, documents.length)
  // Postings: for each word, the documents holding it, so a query touches only those.
  const postings = new Map<string, number[]>()
  termCounts.forEach((counts, document) => {
    for (const word of counts.keys()) {
      const list = postings.get(word)
      if (list === undefined) postings.set(word, [document])
      else list.push(document)
    }
  })
  const total = documents.length
  return {
    score(query) {
      const scores = new Float64Array(total)
      for (const word of new Set(contentWords(query))) {
        const list = postings.get(word)
        if (list === undefined) continue
        const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5))
        for (const document of list) {
          const frequency = (termCounts[document] as Map<string, number>).get(word) as number
          const norm = K1 * (1 - B + (B * (lengths[document] as number)) / averageLength)
          scores[document] = (scores[document] as number) + (idf * frequency * (K1 + 1)) / (frequency + norm)
        }
      }
      return scores
    },
  }
}
