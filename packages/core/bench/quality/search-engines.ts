import { create, insertMultiple, search as oramaSearch } from '@orama/orama'
import { Index as FlexIndex } from 'flexsearch'
import MiniSearch from 'minisearch'
import type { Entry } from '../../src/index'
import { createRecallIndex, entryRecallTerms, recallSearcher, type RecallHit, type RecallRequest, type RecallSearcher } from '../../src/recall/index'
import { indexedTerms, tellingTerms } from '../../src/recall/recall-index'

// The same recall, four search engines: threadlens's own postings and three well-kept libraries.
// Every engine is given the same terms (recall's folding, `entryRecallTerms`) and the same query
// terms (the rarest 8 of the question, `tellingTerms`), so what differs is the ranking and the cost.

export interface SearchEngine {
  readonly name: string
  /** A fresh index for one thread, as `project()` takes it. */
  createIndex(): RecallSearcher
  /** What the byte count bundles: the library alone, or threadlens's term index alone (terms and query rules are the same for all). */
  readonly bundleEntry: string
}

/** Entries indexed so far and their terms; appends only (the bench threads never change). */
interface Indexed {
  through: number
  readonly frequency: Map<string, number>
  documents: number
}

/** A searcher over an engine that takes documents (seq, terms) and answers ranked seqs for query terms. */
function engineSearcher(engine: {
  add(seq: number, terms: readonly string[]): void
  rank(terms: readonly string[], request: RecallRequest): RecallHit[]
}): RecallSearcher {
  const indexed: Indexed = { through: -1, frequency: new Map(), documents: 0 }
  return recallSearcher({
    terms: (text) => indexedTerms(text),
    search: (request) => {
      for (const entry of request.entries as readonly Entry[]) {
        if (entry.seq <= indexed.through) continue
        indexed.through = entry.seq
        const terms = entryRecallTerms(entry)
        if (terms === undefined) continue
        for (const term of new Set(terms)) indexed.frequency.set(term, (indexed.frequency.get(term) ?? 0) + 1)
        indexed.documents += 1
        engine.add(entry.seq, terms)
      }
      const terms = tellingTerms(indexedTerms(request.query), (term) => indexed.frequency.get(term) ?? 0, indexed.documents)
      // Best first, ties newest first, as threadlens's index orders them.
      return terms.length === 0 || request.limit <= 0
        ? []
        : engine
            .rank(terms, request)
            .sort((a, b) => b.score - a.score || b.seq - a.seq)
            .slice(0, request.limit)
    },
  })
}

const prefix = (term: string): boolean => term.length >= 5

export const searchEngines: readonly SearchEngine[] = [
  { name: 'threadlens postings', createIndex: () => createRecallIndex(), bundleEntry: 'threadlens' },
  {
    name: 'MiniSearch 7.2.0',
    bundleEntry: 'minisearch',
    createIndex: () => {
      const index = new MiniSearch<{ id: number; text: string }>({
        fields: ['text'],
        tokenize: (text) => (text === '' ? [] : text.split(' ')),
        processTerm: (term) => term,
      })
      return engineSearcher({
        add: (seq, terms) => index.add({ id: seq, text: terms.join(' ') }),
        rank: (terms, request) =>
          index
            .search(terms.join(' '), {
              tokenize: (text) => text.split(' '),
              combineWith: 'OR',
              prefix,
              filter: (result) => result.id >= request.from && result.id < request.before,
            })
            .map((result) => ({ seq: result.id as number, score: result.score, terms: [...result.terms].sort() })),
      })
    },
  },
  {
    name: 'FlexSearch 0.8.212',
    bundleEntry: 'flexsearch',
    createIndex: () => {
      // 'forward' finds the longer words a term starts, like the others' prefix search; no scores come back, only an order.
      const index = new FlexIndex({ tokenize: 'forward', encode: (text: string) => (text === '' ? [] : text.split(' ')) })
      return engineSearcher({
        add: (seq, terms) => void index.add(seq, terms.join(' ')),
        rank: (terms, request) => {
          // No filter by id: ask for more and keep those in range.
          const ids = index.search(terms.join(' '), { limit: 4 * request.limit + 256, suggest: true }) as number[]
          const inRange = ids.filter((id) => id >= request.from && id < request.before)
          return inRange.map((seq, position) => ({ seq, score: inRange.length - position, terms: [] }))
        },
      })
    },
  },
  {
    name: 'Orama 3.1.18',
    bundleEntry: '@orama/orama',
    createIndex: () => {
      const db = create({
        schema: { text: 'string', seq: 'number' } as const,
        components: {
          tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (raw: string) => (raw === '' ? [] : raw.split(' ')) },
        },
      })
      return engineSearcher({
        add: (seq, terms) => void insertMultiple(db, [{ text: terms.join(' '), seq }]),
        rank: (terms, request) => {
          const found = oramaSearch(db, {
            term: terms.join(' '),
            properties: ['text'],
            threshold: 1,
            where: { seq: { between: [request.from, request.before - 1] } },
            limit: request.limit,
          })
          if (found instanceof Promise) throw new Error('Orama answered asynchronously: recall searches synchronously')
          return found.hits.map((hit) => ({ seq: hit.document.seq as number, score: hit.score, terms: [] }))
        },
      })
    },
  },
]
