import 'fake-indexeddb/auto'
import type { EntryInput, Thread } from '@threadlens/core'
import { RECALL_TERMS_VERSION } from '@threadlens/core/internal'
import { createRecallIndex, type RecallIndex } from '@threadlens/core/recall'
import fc from 'fast-check'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { writeVersion1Database, version1ThreadId } from './fixtures/version-1-database'
import { ThreadlensDB } from './threadlens-db'
import { createMemoryBackedStores } from '../in-memory/create-in-memory-stores'
import { openTestStores, uniqueName } from '../../testing/test-database'
import { createThreadStore } from './create-thread-store'
import type { ThreadStore } from '../../threads/thread-store'

// The recall index kept beside the entries: restored from stored terms, it must search exactly as
// an index built from the thread's entries, whatever the thread, on both backends.

const words = ['ferry', 'Bergen', 'cat', 'Oliver', 'adoption', 'adopted', 'pottery', 'camping', 'order', 'A-4711', '東京都', 'the', 'and', '🙂']
const textArbitrary = fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((parts) => parts.join(' '))
const inputArbitrary: fc.Arbitrary<EntryInput[]> = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant'), content: textArbitrary }).map((payload) => [{ kind: 'message', payload } as EntryInput]),
  fc
    .tuple(fc.uuid(), textArbitrary, textArbitrary)
    .map(([id, argument, result]) => [
      { kind: 'tool_call', payload: { name: 'lookup', arguments: { query: argument } }, refs: { callId: `c-${id}`, toolCallId: id } } as EntryInput,
      { kind: 'tool_result', payload: { name: 'lookup', result: { text: result } }, refs: { callId: `c-${id}`, toolCallId: id } } as EntryInput,
    ]),
  textArbitrary.map((content) => [{ kind: 'summary', payload: { fromSeq: 0, toSeq: 0, content: content || 'summary' } } as EntryInput]),
)
// A message first: a summary needs an older entry to cover.
const threadArbitrary = fc
  .tuple(textArbitrary, fc.array(inputArbitrary, { maxLength: 25 }))
  .map(([first, groups]) => [{ kind: 'message', payload: { role: 'user', content: first } } as EntryInput, ...groups.flat()])
const queryArbitrary = fc.array(fc.constantFrom(...words, 'adopt', 'missing'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '))

const searchAll = (index: RecallIndex, thread: Thread, query: string) =>
  index.search({ entries: thread.entries, query, from: 0, before: thread.nextSeq, limit: 100 })

function builtFrom(thread: Thread): RecallIndex {
  const index = createRecallIndex()
  index.sync(thread.entries)
  return index
}

// First in the file: the recall-terms code loads with the first `recallIndex` call of the page.
describe('before any recall index is asked for', () => {
  it('writes no terms (an app that never recalls does not load their code), and the first recallIndex works them out', async () => {
    const { db, threads } = openTestStores('recall-terms-lazy')
    const { id } = await threads.create()
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'The ferry to Bergen' } })
    expect(await db.recallTerms.count()).toBe(0)
    const index = await threads.recallIndex(id)
    expect(index.indexedThrough).toBe(0)
    expect(await db.recallTerms.count()).toBe(1)
    // From now on each write keeps its terms in its own transaction.
    await threads.append(id, { kind: 'message', payload: { role: 'assistant', content: 'It leaves at nine' } })
    expect((await db.recallTerms.toArray()).flatMap((chunk) => chunk.terms)).toEqual(['ferry bergen', 'leave nine'])
    db.close()
  })
})

const backends: [string, () => { threads: ThreadStore; close: () => void }][] = [
  [
    'IndexedDB (fake-indexeddb)',
    () => {
      const { db, threads } = openTestStores('recall-terms')
      return { threads, close: () => db.close() }
    },
  ],
  ['in memory', () => ({ threads: createMemoryBackedStores().threads, close: () => undefined })],
]

describe.each(backends)('%s: threads.recallIndex', (_name, open) => {
  it('searches exactly as an index built from the loaded thread, for any thread and query, before and after more appends', async () => {
    await fc.assert(
      fc.asyncProperty(threadArbitrary, threadArbitrary, fc.array(queryArbitrary, { minLength: 1, maxLength: 3 }), async (first, more, queries) => {
        const { threads, close } = open()
        const { id } = await threads.create()
        await threads.appendMany(id, first)
        const restored = await threads.recallIndex(id)
        let thread = await threads.load(id)
        expect(restored.indexedThrough).toBe(thread.nextSeq - 1)
        for (const query of queries) expect(searchAll(restored, thread, query)).toEqual(searchAll(builtFrom(thread), thread, query))
        // Later appends reach it through the entries a projection gives it.
        await threads.appendMany(id, more)
        thread = await threads.load(id)
        for (const query of queries) expect(searchAll(restored, thread, query)).toEqual(searchAll(builtFrom(thread), thread, query))
        close()
      }),
      { numRuns: 40 },
    )
  })

  it('keeps the terms of imported and forked threads, and answers for a thread that is not stored with ThreadNotFoundError', async () => {
    const { threads, close } = open()
    const { id } = await threads.create()
    await threads.appendMany(id, [
      { kind: 'message', payload: { role: 'user', content: 'The ferry to Bergen leaves at nine' } },
      { kind: 'message', payload: { role: 'assistant', content: 'Noted' } },
    ])
    const { threadId: imported } = await threads.import(await threads.export(id))
    const forked = await threads.fork(id, { atSeq: 0 })
    for (const copy of [imported, forked.id]) {
      const thread = await threads.load(copy)
      expect(searchAll(await threads.recallIndex(copy), thread, 'ferry').map((hit) => hit.seq)).toEqual([0])
    }
    await expect(threads.recallIndex('missing')).rejects.toMatchObject({ name: 'ThreadNotFoundError' })
    close()
  })
})

describe('a long thread', () => {
  it('is restored in slices to the same index', async () => {
    const { db, threads } = openTestStores('recall-terms-long')
    const { id } = await threads.create()
    await threads.appendMany(
      id,
      Array.from({ length: 4_500 }, (_, position): EntryInput => ({
        kind: 'message',
        payload: { role: 'user', content: `note ${position} about ${words[position % words.length]}` },
      })),
    )
    const thread = await threads.load(id)
    const restored = await threads.recallIndex(id)
    expect(restored.indexedThrough).toBe(4_499)
    expect(restored.size).toBe(4_500)
    expect(searchAll(restored, thread, 'pottery 4471')).toEqual(searchAll(builtFrom(thread), thread, 'pottery 4471'))
    db.close()
  })
})

describe('recall terms in IndexedDB', () => {
  const message = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'user', content } })

  it('are written with each entry in its transaction, and none for an append that fails', async () => {
    const { db, threads } = openTestStores('recall-terms-atomic')
    const { id } = await threads.create()
    await threads.appendMany(id, [message('Ferry to Bergen'), message('the and')])
    await threads.append(id, { kind: 'summary', payload: { fromSeq: 0, toSeq: 1, content: 'ferry' } })
    const [first, ...others] = await db.recallTerms.toArray()
    expect(others).toEqual([])
    // One chunk, grown by the second append: a summary is not searched.
    expect(first).toMatchObject({ threadId: id, firstSeq: 0, terms: ['ferry bergen', '', null], version: RECALL_TERMS_VERSION })
    // A result without its call is refused: no entry and no terms are written.
    const refused = await threads
      .append(id, { kind: 'tool_result', payload: { name: 'x', result: {} }, refs: { toolCallId: 'nope' } })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Error)
    expect((await db.recallTerms.toArray()).flatMap((chunk) => chunk.ids)).toHaveLength(3)
    db.close()
  })

  it('go with their thread when it is deleted', async () => {
    const { db, threads } = openTestStores('recall-terms-delete')
    const kept = await threads.create()
    const gone = await threads.create()
    await threads.append(kept.id, message('kept ferry'))
    await threads.append(gone.id, message('gone ferry'))
    await threads.delete(gone.id)
    expect((await db.recallTerms.toArray()).map((row) => row.threadId)).toEqual([kept.id])
    db.close()
  })

  it('are worked out once for entries stored without them (an older database, a damaged row, another version), then read', async () => {
    const name = uniqueName('recall-terms-upgrade')
    await writeVersion1Database(name)
    const db = new ThreadlensDB({ name })
    const threads = createThreadStore(db, { onUnreadableEntry: () => undefined })
    const thread = await threads.load(version1ThreadId)
    expect(await db.recallTerms.count()).toBe(0)
    const restored = await threads.recallIndex(version1ThreadId)
    expect(
      searchAll(restored, thread, 'weather Oslo')
        .map((hit) => hit.seq)
        .sort(),
    ).toEqual([0, 1, 2])
    const covered = async () => (await db.recallTerms.toArray()).flatMap((chunk) => chunk.ids)
    expect(await covered()).toEqual(thread.entries.map((entry) => entry.id))
    // A damaged chunk, or one of another version, is worked out again from its entries.
    for (const bad of [
      { terms: [42] as never, version: RECALL_TERMS_VERSION },
      { terms: ['stale'], version: RECALL_TERMS_VERSION + 1 },
    ]) {
      await db.recallTerms.clear()
      await db.recallTerms.put({ threadId: version1ThreadId, firstSeq: 3, ids: ['e3'], ...bad })
      const again = await threads.recallIndex(version1ThreadId)
      expect(searchAll(again, thread, 'Oslo raincoat')).toEqual(searchAll(builtFrom(thread), thread, 'Oslo raincoat'))
      expect(await covered()).toEqual(thread.entries.map((entry) => entry.id))
    }
    db.close()
    await Dexie.delete(name)
  })
})
