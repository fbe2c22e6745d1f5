import fc from 'fast-check'
import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { recallTerms } from './recall-terms'
import { defaultBm25 } from './bm25'
import { TermIndex } from './term-index'

// The index's ranking is MiniSearch's BM25+ (the library the recall benches were first measured
// with), computed over plain postings: held to MiniSearch itself over random documents and queries.

const vocabulary = [
  'ferry',
  'bergen',
  'adopt',
  'adoption',
  'adopted',
  'adoptions',
  'paint',
  'painter',
  'painting',
  'oslo',
  'train',
  'cat',
  'oliver',
  'pottery',
  'potter',
  'camp',
  'camping',
  'order',
  '4711',
  '東京',
  '京都',
]

function reference(documents: readonly (readonly string[])[]): MiniSearch<{ id: number; text: string }> {
  const search = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: (text) => (text === '' ? [] : text.split(' ')),
    processTerm: (term) => term,
    searchOptions: { bm25: defaultBm25 },
  })
  documents.forEach((terms, id) => search.add({ id, text: terms.join(' ') }))
  return search
}

const documentsArbitrary = fc.array(fc.array(fc.constantFrom(...vocabulary), { maxLength: 12 }), { minLength: 1, maxLength: 40 })
const queryArbitrary = fc.uniqueArray(fc.constantFrom(...vocabulary, 'missing', 'adop'), { minLength: 1, maxLength: 6 })

describe('TermIndex', () => {
  it('ranks as MiniSearch does: the same documents, the same scores, the same matched terms, over any range', () => {
    fc.assert(
      fc.property(documentsArbitrary, queryArbitrary, fc.nat(45), fc.nat(45), (documents, query, a, b) => {
        const [from, before] = a <= b ? [a, b + 1] : [b, a + 1]
        const index = new TermIndex()
        documents.forEach((terms, document) => index.add(document, terms))
        const prefix = (term: string): boolean => term.length >= 4
        const ours = index.search({ terms: query, prefix, from, before, limit: 1000, bm25: defaultBm25 })
        const theirs = reference(documents)
          .search(query.join(' '), {
            tokenize: (text) => text.split(' '),
            combineWith: 'OR',
            prefix,
            filter: (result) => result.id >= from && result.id < before,
          })
          .map((result) => ({ document: result.id as number, score: result.score, terms: [...result.terms].sort() }))
          .sort((x, y) => y.score - x.score || y.document - x.document)
        expect(ours.map((match) => match.document).sort((x, y) => x - y)).toEqual(theirs.map((match) => match.document).sort((x, y) => x - y))
        const byDocument = new Map(theirs.map((match) => [match.document, match]))
        for (const match of ours) {
          const expected = byDocument.get(match.document) as (typeof theirs)[number]
          expect(match.score).toBeCloseTo(expected.score, 9)
          expect(match.terms).toEqual(expected.terms)
        }
        // Best first, ties newest first.
        ours.slice(1).forEach((match, position) => {
          const previous = ours[position] as (typeof ours)[number]
          expect(previous.score > match.score || (previous.score === match.score && previous.document > match.document)).toBe(true)
        })
      }),
      { numRuns: 300 },
    )
  })

  it('reports every matched term of a document when a query term finds more than 32 longer ones', () => {
    const documents = Array.from({ length: 40 }, (_, position) => [
      `paint${String.fromCharCode(97 + (position % 26))}${position}`,
      'paint',
      `paint${position}`,
    ])
    documents.push(documents.flat())
    const index = new TermIndex()
    documents.forEach((terms, document) => index.add(document, terms))
    const prefix = (): boolean => true
    const ours = index.search({ terms: ['paint'], prefix, from: 0, before: documents.length, limit: 1000, bm25: defaultBm25 })
    const theirs = reference(documents).search('paint', { tokenize: (text) => text.split(' '), combineWith: 'OR', prefix })
    const last = ours.find((match) => match.document === 40)
    expect(last?.terms).toHaveLength(81)
    expect(last?.terms).toEqual([...(theirs.find((result) => result.id === 40)?.terms ?? [])].sort())
  })

  it('keeps the best few when fewer are asked for: the head of the full ranking', () => {
    fc.assert(
      fc.property(documentsArbitrary, queryArbitrary, fc.integer({ min: 1, max: 10 }), (documents, query, limit) => {
        const index = new TermIndex()
        documents.forEach((terms, document) => index.add(document, terms))
        const request = { terms: query, prefix: () => true, from: 0, before: documents.length, bm25: defaultBm25 }
        expect(index.search({ ...request, limit })).toEqual(index.search({ ...request, limit: 1000 }).slice(0, limit))
      }),
      { numRuns: 200 },
    )
  })

  it('counts documents and term frequencies, takes documents in ascending order only, and finds nothing where nothing is', () => {
    const index = new TermIndex()
    index.add(0, recallTerms('The ferry to Bergen, the ferry back'))
    index.add(2, [])
    expect(index.documents).toBe(2)
    expect(index.frequency('ferry')).toBe(1)
    expect(index.has(1)).toBe(false)
    expect(() => index.add(2, ['late'])).toThrow(RangeError)
    expect(() => index.add(Number.NaN, ['late'])).toThrow(RangeError)
    const request = { terms: ['ferry'], prefix: () => false, bm25: defaultBm25, limit: 5 }
    expect(index.search({ ...request, from: 1, before: 3 })).toEqual([])
    expect(index.search({ ...request, from: 0, before: 3, limit: 0 })).toEqual([])
    expect(index.search({ ...request, from: 0, before: 3 })).toMatchObject([{ document: 0, terms: ['ferry'] }])
    expect(new TermIndex().search({ ...request, from: 0, before: 3 })).toEqual([])
  })
})
