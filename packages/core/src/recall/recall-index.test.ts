import { describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { entryRecallTerms, RECALL_TERMS_VERSION } from './entry-terms'
import { createRecallIndex, InvalidRecallTermsError, recallText } from './recall-index'
import { recallTerms } from './recall-terms'

function chat(texts: readonly string[], id = 't'): Thread {
  const thread = createThread({ id, now: () => 0 })
  texts.forEach((content, position) => thread.append({ kind: 'message', payload: { role: position % 2 === 0 ? 'user' : 'assistant', content } }))
  return thread
}

const search = (index: ReturnType<typeof createRecallIndex>, thread: Thread, query: string) =>
  index.search({ entries: thread.entries, query, from: 0, before: Number.POSITIVE_INFINITY, limit: 10 }).map((hit) => hit.seq)

describe('recallTerms', () => {
  it('folds case and common endings, leaves out function words, splits unspaced scripts into pairs', () => {
    expect(recallTerms('The kids were Painting in the parks')).toEqual(['kid', 'paint', 'park'])
    expect(recallTerms("Caroline's adoption agencies")).toEqual(['caroline', 'adoption', 'agency'])
    expect(recallTerms('東京都の天気')).toEqual(['東京', '京都', '都の', 'の天', '天気'])
    expect(recallTerms('order 4711-A costs 3.50')).toEqual(['order', '4711', 'cost', '3.50'])
    expect(recallTerms('')).toEqual([])
    expect(recallTerms('the and of 🙂🚀')).toEqual([])
  })

  it('is bounded: a huge text gives at most the limit of terms', () => {
    expect(recallTerms('word '.repeat(100_000), 500)).toHaveLength(500)
  })
})

describe('createRecallIndex', () => {
  it('ranks the entry that shares the rare words first, with the terms that matched', () => {
    const thread = chat(['I booked the ferry to Bergen', 'Nice!', 'My cat is called Oliver', 'Cute', 'How was the weather?'])
    const index = createRecallIndex()
    const hits = index.search({ entries: thread.entries, query: 'What is the name of my cat?', from: 0, before: 5, limit: 3 })
    expect(hits[0]).toMatchObject({ seq: 2, terms: ['cat'] })
    expect(hits.every((hit) => hit.score > 0)).toBe(true)
  })

  it('only searches the range it is asked for, and finds nothing for a query of stop words', () => {
    const thread = chat(['ferry to Bergen', 'ferry tickets', 'ferry times'])
    const index = createRecallIndex()
    expect(index.search({ entries: thread.entries, query: 'ferry', from: 1, before: 2, limit: 10 }).map((hit) => hit.seq)).toEqual([1])
    expect(index.terms('what is it')).toEqual([])
    expect(search(index, thread, 'what is it')).toEqual([])
  })

  it('indexes appends incrementally and starts again for another thread or entries that disagree', () => {
    const thread = chat(['ferry to Bergen'])
    const index = createRecallIndex()
    expect(search(index, thread, 'ferry')).toEqual([0])
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'The ferry leaves at nine' } })
    expect(search(index, thread, 'ferry').sort()).toEqual([0, 1])
    expect(index.size).toBe(2)
    // Another thread with the same seqs: rebuilt, the first thread's texts are gone.
    const other = chat(['train to Oslo'], 'other')
    expect(search(index, other, 'ferry')).toEqual([])
    expect(search(index, other, 'train')).toEqual([0])
    expect(index.size).toBe(1)
    // Same thread id, a different entry at a seq it indexed (a thread re-created): rebuilt.
    const recreated = chat(['bus to Tromsø'], 'other')
    expect(search(index, recreated, 'train')).toEqual([])
    expect(search(index, recreated, 'bus')).toEqual([0])
  })

  it('indexes the older entries when it saw only the newest first (a windowed read, then the whole thread)', () => {
    const thread = chat(['ferry to Bergen', 'ok', 'train to Oslo', 'fine', 'bus to Tromsø'])
    const index = createRecallIndex()
    expect(index.search({ entries: thread.entries.slice(3), query: 'ferry', from: 0, before: 10, limit: 10 })).toEqual([])
    expect(search(index, thread, 'ferry')).toEqual([0])
    // A gap after what it indexed is a partial read too.
    const gappy = createRecallIndex()
    gappy.sync(thread.entries.slice(0, 1))
    gappy.sync(thread.entries.slice(3))
    expect(search(gappy, thread, 'train')).toEqual([2])
  })

  it('searches what the model reads of tool calls and results, not summaries or context ops', () => {
    const thread = createThread({ id: 'tools', now: () => 0 })
    thread.append({ kind: 'tool_call', payload: { name: 'lookup_order', arguments: { id: 'A-4711' } }, refs: { callId: 'c', toolCallId: 'x' } })
    thread.append({
      kind: 'tool_result',
      payload: { name: 'lookup_order', result: { tracking: 'ZX-99812' } },
      refs: { callId: 'c', toolCallId: 'x' },
    })
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 1, content: 'tracking number found' } })
    expect(recallText(thread.entries[1] as never)).toContain('ZX-99812')
    expect(recallText(thread.entries[2] as never)).toBeUndefined()
    expect(search(createRecallIndex(), thread, 'tracking ZX-99812')).toEqual([1])
  })
})

describe('restoring a recall index from stored terms', () => {
  const rowsOf = (thread: Thread) =>
    thread.entries.map((entry) => ({
      threadId: entry.threadId,
      seq: entry.seq,
      id: entry.id,
      terms: entryRecallTerms(entry),
      version: RECALL_TERMS_VERSION,
    }))
  const texts = ['I booked the ferry to Bergen', 'Nice!', 'My cat is called Oliver', 'the and of', '', 'How was the ferry?', 'Bergen was rainy']

  it('searches as an index built from the entries, and indexes only what is appended after', () => {
    const thread = chat(texts)
    const built = createRecallIndex()
    built.sync(thread.entries)
    const restored = createRecallIndex()
    restored.restore('t', rowsOf(thread))
    expect(restored.size).toBe(built.size)
    expect(restored.indexedThrough).toBe(thread.entries.length - 1)
    for (const query of ['ferry Bergen', 'cat', 'rainy weather', 'called'])
      expect(search(restored, thread, query)).toEqual(search(built, thread, query))
    expect(restored.search({ entries: thread.entries, query: 'ferry', from: 0, before: 7, limit: 10 })).toEqual(
      built.search({ entries: thread.entries, query: 'ferry', from: 0, before: 7, limit: 10 }),
    )
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Oliver the cat again' } })
    expect(search(restored, thread, 'oliver')).toEqual([7, 2])
    expect(restored.size).toBe(built.size + 1)
  })

  it('is made again from the entries when they are not the ones the rows were stored for', () => {
    const thread = chat(texts)
    const restored = createRecallIndex()
    restored.restore('t', rowsOf(thread))
    const recreated = chat(['train to Oslo'], 't')
    expect(search(restored, recreated, 'ferry')).toEqual([])
    expect(search(restored, recreated, 'train')).toEqual([0])
  })

  it('refuses rows with a gap, of another thread or of another version, with a typed error, and holds nothing after', () => {
    const thread = chat(texts)
    const rows = rowsOf(thread)
    const cases = [[rows[0], rows[2]], [rows[0], { ...rows[1], threadId: 'other' }], [{ ...rows[0], version: RECALL_TERMS_VERSION + 1 }]]
    for (const bad of cases) {
      const index = createRecallIndex()
      index.sync(thread.entries)
      let caught: unknown
      try {
        index.restore('t', bad as never)
      } catch (error) {
        caught = error
      }
      expect(InvalidRecallTermsError.isInstance(caught)).toBe(true)
      expect((caught as Error).message).toMatch(/cannot be restored at seq/)
      expect(index.size).toBe(0)
      // The next projection builds it from the entries.
      expect(search(index, thread, 'ferry')).toEqual([5, 0])
    }
  })
})

describe('restoring in slices', () => {
  it('adds rows that go on from the restore just before, and starts again at seq 0 or after a sync', () => {
    const thread = chat(['ferry to Bergen', 'ok', 'train to Oslo', 'fine', 'bus to Tromsø', 'ferry again'])
    const rows = thread.entries.map((entry) => ({
      threadId: 't',
      seq: entry.seq,
      id: entry.id,
      terms: entryRecallTerms(entry),
      version: RECALL_TERMS_VERSION,
    }))
    const sliced = createRecallIndex()
    sliced.restore('t', rows.slice(0, 2))
    sliced.restore('t', rows.slice(2, 5))
    sliced.restore('t', rows.slice(5))
    expect(sliced.indexedThrough).toBe(5)
    expect(search(sliced, thread, 'ferry train bus')).toEqual(search(createRecallIndex(), thread, 'ferry train bus'))
    // After a search (a sync), rows from the middle are not a continuation.
    expect(() => sliced.restore('t', rows.slice(5))).toThrow(InvalidRecallTermsError)
    // Rows from seq 0 start again.
    sliced.restore('t', rows.slice(0, 3))
    expect(sliced.indexedThrough).toBe(2)
    expect(sliced.size).toBe(3)
  })
})
