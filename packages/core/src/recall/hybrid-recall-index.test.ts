import { afterEach, describe, expect, it, vi } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { ThreadlensError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { checkVectors, type Embedder, type EmbeddingVector } from './embedder'
import { createHybridRecallIndex, type HybridRecallIndex } from './hybrid-recall-index'
import { createRecallIndex } from './recall-index'
import { recallTerms } from './recall-terms'
import { fuseRankings } from './vector-ranking'

function chat(texts: readonly string[], id = 't'): Thread {
  const thread = createThread({ id, now: () => 0 })
  texts.forEach((content, position) => thread.append({ kind: 'message', payload: { role: position % 2 === 0 ? 'user' : 'assistant', content } }))
  return thread
}

// A deterministic stand-in for an embedding model: the text's terms (recall's own tokenizer), each
// synonym below folded to one meaning, hashed into 64 buckets (FNV-1a), normalised. Texts that say
// the same with different words get the same buckets, which full-text search cannot see.
const DIMENSIONS = 64
const meanings: Readonly<Record<string, string>> = {
  kitten: 'cat',
  feline: 'cat',
  kitty: 'cat',
  call: 'name',
  named: 'name',
  vehicle: 'car',
  automobile: 'car',
}

function bucket(piece: string): number {
  let hash = 0x811c9dc5
  for (const character of piece) hash = Math.imul(hash ^ (character.codePointAt(0) as number), 0x01000193) >>> 0
  return hash % DIMENSIONS
}

function fakeVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0)
  for (const term of recallTerms(text)) {
    const at = bucket(meanings[term] ?? term)
    vector[at] = (vector[at] as number) + 1
  }
  const norm = Math.hypot(...vector)
  return norm === 0 ? vector : vector.map((value) => value / norm)
}

type Fault = 'none' | 'throw' | 'count' | 'dimension' | 'nan' | 'hang'

/** The fake embedder, recording each call's texts and signal; `fault` makes the next calls misbehave. */
function fakeEmbedder() {
  const calls: (readonly string[])[] = []
  const signals: AbortSignal[] = []
  const control = { fault: 'none' as Fault }
  const embed: Embedder = async (texts, { signal }) => {
    calls.push(texts)
    signals.push(signal)
    const vectors: EmbeddingVector[] = texts.map(fakeVector)
    switch (control.fault) {
      case 'throw':
        throw new Error('429 Too Many Requests')
      case 'count':
        return vectors.slice(1)
      case 'dimension':
        return vectors.map((vector) => vector.slice(0, 32))
      case 'nan':
        return vectors.map((vector, position) => (position === 0 ? [Number.NaN, ...vector.slice(1)] : vector))
      case 'hang':
        return new Promise<never>(() => undefined)
      default:
        return vectors.map((vector) => Float32Array.from(vector))
    }
  }
  return { embed, calls, signals, control }
}

const pets = [
  'I adopted a kitten last spring, her name is Miso',
  'Congratulations on the new family member!',
  'I booked the ferry to Bergen for Friday',
  'Enjoy the fjords',
  'My car needs new tyres before winter',
  'Check the tread depth first',
]
const paraphrase = 'What is my feline pet called?'

const request = (thread: Thread, query: string, from = 0, before = Number.POSITIVE_INFINITY) => ({
  entries: thread.entries,
  query,
  from,
  before,
  limit: 10,
})
const lexicalOnly = (thread: Thread, query: string) => createRecallIndex().search(request(thread, query))

describe('createHybridRecallIndex', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('finds a paraphrase with no shared words only by meaning, with no matched terms', async () => {
    const thread = chat(pets)
    expect(lexicalOnly(thread, paraphrase)).toEqual([])
    const index = createHybridRecallIndex({ embed: fakeEmbedder().embed })
    // Not prepared yet: lexical only, nothing.
    expect(index.search(request(thread, paraphrase))).toEqual([])
    const result = await index.prepare(thread, paraphrase)
    expect(result).toMatchObject({ ok: true, remaining: 0, queryReady: true })
    expect(result.embedded).toEqual(thread.entries.map((entry) => entry.id))
    expect(index.search(request(thread, paraphrase))[0]).toMatchObject({ seq: 0, terms: [] })
    expect(index.dimensions).toBe(DIMENSIONS)
    expect(index.lastFailure).toBeUndefined()
  })

  it('fuses by reciprocal rank: both rankings find it first, each hit keeps the terms it matched by words', () => {
    const lexical = [{ seq: 2, score: 9, terms: ['ferry'] }]
    const semantic = [
      { seq: 0, similarity: 0.9 },
      { seq: 2, similarity: 0.5 },
    ]
    expect(fuseRankings(lexical, semantic, 10)).toEqual([
      { seq: 2, score: 1 / 61 + 1 / 62, terms: ['ferry'] },
      { seq: 0, score: 1 / 61, terms: [] },
    ])
    // Equal scores: newest first.
    expect(fuseRankings([{ seq: 1, score: 1, terms: ['a'] }], [{ seq: 3, similarity: 1 }], 10).map((hit) => hit.seq)).toEqual([3, 1])
    expect(fuseRankings(lexical, semantic, 1)).toHaveLength(1)
  })

  it('keeps the lexical hits in the fused ranking', async () => {
    const thread = chat(pets)
    const index = createHybridRecallIndex({ embed: fakeEmbedder().embed })
    const query = 'Is the ferry fine for my kitty?'
    await index.prepare(thread, query)
    const hits = index.search(request(thread, query))
    expect(hits.find((hit) => hit.seq === 2)?.terms).toEqual(['ferry'])
    expect(hits.find((hit) => hit.seq === 0)?.terms).toEqual([])
    expect(
      hits
        .slice(0, 2)
        .map((hit) => hit.seq)
        .sort(),
    ).toEqual([0, 2])
  })

  it('only searches from <= seq < before, by words and by meaning', async () => {
    const thread = chat(pets)
    const index = createHybridRecallIndex({ embed: fakeEmbedder().embed })
    await index.prepare(thread, paraphrase)
    expect(index.search(request(thread, paraphrase, 0, 1)).map((hit) => hit.seq)).toEqual([0])
    expect(index.search(request(thread, paraphrase, 1, 6)).map((hit) => hit.seq)).not.toContain(0)
    const query = 'kitty ferry'
    await index.prepare(thread, query)
    const seqs = index.search(request(thread, query, 1, 3)).map((hit) => hit.seq)
    expect(seqs).toContain(2)
    expect(seqs.every((seq) => seq >= 1 && seq < 3)).toBe(true)
    expect(index.search({ ...request(thread, query), limit: 0 })).toEqual([])
  })

  it('embeds only what has no vector yet: new entries and new queries, in bounded batches', async () => {
    const thread = chat(pets)
    const fake = fakeEmbedder()
    const index = createHybridRecallIndex({ embed: fake.embed, batchSize: 2, maxBatches: 2 })
    const first = await index.prepare(thread, paraphrase)
    expect(first).toMatchObject({ ok: true, remaining: 2 })
    expect(fake.calls.map((texts) => texts.length).sort()).toEqual([1, 2, 2])
    const second = await index.prepare(thread, paraphrase)
    expect(second).toMatchObject({ ok: true, remaining: 0, embedded: [thread.entries[4]?.id, thread.entries[5]?.id] })
    expect(fake.calls).toHaveLength(4)
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Does the vehicle need a check?' } })
    fake.calls.length = 0
    expect(await index.prepare(thread, 'automobile')).toMatchObject({ ok: true, embedded: [thread.entries[6]?.id] })
    expect(fake.calls.map((texts) => [...texts]).sort()).toEqual([['Does the vehicle need a check?'], ['automobile']])
    fake.calls.length = 0
    await index.prepare(thread, 'automobile')
    expect(fake.calls).toEqual([])
    expect(index.vectors().size).toBe(7)
  })

  it.each([
    ['throw', 'embed-failed'],
    ['count', 'wrong-count'],
    ['dimension', 'wrong-dimension'],
    ['nan', 'embed-failed'],
  ] as const)('an embedder that fails (%s) keeps nothing of that call and leaves search lexical', async (fault, reason) => {
    const thread = chat(pets)
    const fake = fakeEmbedder()
    const index = createHybridRecallIndex({ embed: fake.embed })
    await index.prepare(thread, paraphrase)
    const before = index.vectors()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'The ferry to Bergen was late' } })
    fake.control.fault = fault
    const result = await index.prepare(thread, 'ferry kitty')
    expect(result).toMatchObject({ ok: false, reason, embedded: [], remaining: 1, queryReady: false })
    expect(result.ok ? undefined : result.error).toBeInstanceOf(Error)
    expect(index.lastFailure?.reason).toBe(reason)
    expect(index.vectors()).toEqual(before)
    expect(index.search(request(thread, 'ferry kitty'))).toEqual(lexicalOnly(thread, 'ferry kitty'))
    // What was prepared before still searches by meaning; a working embedder catches up.
    expect(index.search(request(thread, paraphrase))[0]).toMatchObject({ seq: 0 })
    fake.control.fault = 'none'
    expect(await index.prepare(thread, 'ferry kitty')).toMatchObject({ ok: true, remaining: 0, queryReady: true })
    expect(index.lastFailure).toBeUndefined()
  })

  it('rejects vectors of another length than `dimensions` from the first call', async () => {
    const thread = chat(pets)
    const index = createHybridRecallIndex({ embed: fakeEmbedder().embed, dimensions: 32 })
    expect(await index.prepare(thread, paraphrase)).toMatchObject({ ok: false, reason: 'wrong-dimension', embedded: [], remaining: 6 })
    expect(index.vectors().size).toBe(0)
    expect(index.search(request(thread, 'ferry'))).toEqual(lexicalOnly(thread, 'ferry'))
  })

  it('checks an answer: one vector per text, one length for all, finite numbers', () => {
    expect(checkVectors([[3, 4], Float64Array.of(0, 2)], 2, undefined)).toEqual({
      ok: true,
      vectors: [Float32Array.of(0.6, 0.8), Float32Array.of(0, 1)],
    })
    expect(
      checkVectors(
        [
          [1, 2],
          [1, 2, 3],
        ],
        2,
        undefined,
      ),
    ).toMatchObject({ ok: false, reason: 'wrong-dimension' })
    expect(checkVectors([[], []], 2, undefined)).toMatchObject({ ok: false, reason: 'wrong-dimension' })
    expect(checkVectors({ length: 1, 0: [1] }, 1, undefined)).toMatchObject({ ok: false, reason: 'wrong-count' })
    expect(checkVectors([[1, Number.POSITIVE_INFINITY]], 1, undefined)).toMatchObject({ ok: false, reason: 'embed-failed' })
    expect(checkVectors([BigInt64Array.of(1n)], 1, undefined)).toMatchObject({ ok: false, reason: 'embed-failed' })
    expect(checkVectors([[0, 0]], 1, 2)).toEqual({ ok: true, vectors: [Float32Array.of(0, 0)] })
  })

  it('gives up on an embedder that never answers after timeoutMs, aborting its signal', async () => {
    vi.useFakeTimers()
    const thread = chat(pets)
    const fake = fakeEmbedder()
    fake.control.fault = 'hang'
    const index = createHybridRecallIndex({ embed: fake.embed, timeoutMs: 5000 })
    const pending = index.prepare(thread, paraphrase)
    await vi.advanceTimersByTimeAsync(4999)
    expect(fake.signals.some((signal) => signal.aborted)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const result = await pending
    expect(result).toMatchObject({ ok: false, reason: 'timeout', embedded: [], queryReady: false })
    expect(fake.signals.every((signal) => signal.aborted)).toBe(true)
    expect(index.lastFailure?.reason).toBe('timeout')
    expect(index.search(request(thread, 'ferry'))).toEqual(lexicalOnly(thread, 'ferry'))
    expect(vi.getTimerCount()).toBe(0)
  })

  it('persists its vectors by entry id: loaded into a new index, only the query is embedded', async () => {
    const thread = chat(pets)
    const index = createHybridRecallIndex({ embed: fakeEmbedder().embed })
    await index.prepare(thread, paraphrase)
    // As an app would store them (IndexedDB keeps Float32Arrays; JSON needs plain arrays).
    const stored = JSON.parse(JSON.stringify([...index.vectors()].map(([id, vector]) => [id, Array.from(vector)]))) as [string, number[]][]
    const fake = fakeEmbedder()
    const restored = createHybridRecallIndex({ embed: fake.embed })
    expect(restored.loadVectors(stored)).toEqual({ loaded: 6, rejected: 0 })
    expect(
      restored.loadVectors([
        ['x', [1, 2]],
        ['y', new Array(DIMENSIONS).fill(Number.NaN)],
      ]),
    ).toEqual({ loaded: 0, rejected: 2 })
    expect(await restored.prepare(thread, paraphrase)).toMatchObject({ ok: true, embedded: [] })
    expect(fake.calls).toEqual([[paraphrase]])
    const hits = restored.search(request(thread, paraphrase))
    expect(hits.map((hit) => hit.seq)).toEqual(index.search(request(thread, paraphrase)).map((hit) => hit.seq))
    // Searching another thread rebuilds the lexical index; the vectors stay.
    restored.search(request(chat(['train to Oslo'], 'other'), 'train'))
    expect(restored.search(request(thread, paraphrase))[0]).toMatchObject({ seq: 0 })
  })

  it('recalls by meaning in project(), and refuses options that make no sense', async () => {
    const thread = chat([...pets, 'Any plans for the weekend?', 'Just resting'])
    const index: HybridRecallIndex = createHybridRecallIndex({ embed: fakeEmbedder().embed })
    await index.prepare(thread, paraphrase)
    const policy = definePolicy({ maxInputTokens: 4096, reserveOutputTokens: 0, maxTurns: 1, recall: {} })
    const counter = await createTokenCounter('heuristic')
    const result = project({ thread, policy, counter, pending: [{ role: 'user', content: paraphrase }], recall: index })
    expect(result.meta.recall?.hits[0]).toMatchObject({ seq: 0, terms: [] })
    expect(result.meta.recall?.seqs).toContain(0)
    expect(() => createHybridRecallIndex({ embed: fakeEmbedder().embed, batchSize: 0 })).toThrow(ThreadlensError)
    expect(() => createHybridRecallIndex({ embed: 'nope' as never })).toThrow(/embed must be a function/)
  })
})
