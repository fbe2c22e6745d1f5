import { createThread, type Entry, type EntryInput, type Thread } from '@threadlens/core'
import { extendThread } from '@threadlens/core/internal'
import { actionsArbitrary, buildThread } from '@threadlens/testing'
import { createMemoryBackedStores } from '@threadlens/store'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { LiveThread } from './live-thread'

const seed = 20261123

/** Random cut points, turned into the chunks a store commits one after another. */
function chunksOf(entries: readonly Entry[], cuts: readonly number[]): Entry[][] {
  const positions = [...new Set(cuts.map((cut) => Math.floor(cut * entries.length)))].sort((a, b) => a - b)
  const chunks: Entry[][] = []
  let start = 0
  for (const position of [...positions, entries.length]) {
    if (position > start) chunks.push(entries.slice(start, position))
    start = Math.max(start, position)
  }
  return chunks
}

/** What a freshly loaded thread holding exactly these entries indexes. */
function rebuilt(thread: Thread): Thread {
  return createThread({ id: thread.id, entries: thread.entries })
}

const cutsArbitrary = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 })

describe('extendThread: the live thread index grows with each commit', () => {
  it(`equals a fresh rebuild after any sequence of appends, and older versions stay as they were (seed ${seed})`, () => {
    fc.assert(
      fc.property(actionsArbitrary, cutsArbitrary, (actions, cuts) => {
        const whole = buildThread(actions)
        const [first = [], ...rest] = chunksOf(whole.entries, cuts)
        const versions = [createThread({ id: whole.id, entries: first })]
        for (const chunk of rest) {
          const previous = versions[versions.length - 1] as Thread
          const previousIndex = previous.index
          const next = extendThread(previous, chunk)
          // Taken over, not rebuilt: the same index object, extended by the chunk.
          expect(next.index).toBe(previousIndex)
          versions.push(next)
        }
        const latest = versions[versions.length - 1] as Thread
        expect(latest.entries).toEqual(whole.entries)
        expect(latest.index).toEqual(whole.index)
        // Every older version still holds its own prefix, and its index (rebuilt on demand) matches it.
        let length = 0
        versions.forEach((version, position) => {
          length += position === 0 ? first.length : (rest[position - 1] as Entry[]).length
          expect(version.entries).toEqual(whole.entries.slice(0, length))
          expect(version.nextSeq).toBe(length)
          expect(version.index).toEqual(rebuilt(version).index)
        })
      }),
      { numRuns: 200, seed },
    )
  })

  it('refuses a gap or another thread’s entry, and leaves the version it was given intact', () => {
    const thread = createThread({ id: 't', now: () => 1 })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'hi' } })
    const other = createThread({ id: 't', now: () => 1 })
    other.append({ kind: 'message', payload: { role: 'user', content: 'a' } })
    other.append({ kind: 'message', payload: { role: 'assistant', content: 'b' } })
    const gap = other.entries[1] as Entry
    expect(() => extendThread(thread, [gap, gap])).toThrow(/gapless: expected seq 2, got 1/)
    const stranger = createThread({ id: 'u', now: () => 1 })
    stranger.append({ kind: 'message', payload: { role: 'user', content: 'x' } })
    stranger.append({ kind: 'message', payload: { role: 'user', content: 'y' } })
    expect(() => extendThread(thread, [stranger.entries[1] as Entry])).toThrow(/belongs to thread u/)
    expect(thread.entries).toHaveLength(1)
    expect(thread.index.userSeqs).toEqual([0])
  })
})

// Repeated on purpose: same shape as packages/store/src/transfer/thread-jsonl.ts (which drops a file's token counts) and as
// packages/store/src/transfer/thread-file-format.ts (a stored entry in key order); here the entry's meta stays whole.
function inputOf(entry: Entry): EntryInput {
  return {
    id: entry.id,
    kind: entry.kind,
    payload: entry.payload,
    refs: entry.refs,
    createdAt: entry.createdAt,
    ...(entry.meta === undefined ? {} : { meta: entry.meta }),
  } as EntryInput
}

describe('LiveThread over a store', () => {
  it(`follows random commits with one extended index, equal to a fresh load (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(actionsArbitrary, cutsArbitrary, async (actions, cuts) => {
        const whole = buildThread(actions)
        const stores = createMemoryBackedStores()
        const { id } = await stores.threads.create({ title: 'random' })
        const live = new LiveThread(stores.threads, id)
        const seen: Thread[] = []
        const stop = live.subscribe((snapshot) => {
          if (snapshot.thread !== undefined) seen.push(snapshot.thread)
        })
        await vi.waitFor(() => expect(live.getState().status).toBe('ready'))
        const loaded = live.getState().thread as Thread
        const index = loaded.index
        for (const chunk of chunksOf(whole.entries, cuts)) {
          const expected = live.getState().version + chunk.length
          await stores.threads.appendMany(id, chunk.map(inputOf))
          await vi.waitFor(() => expect(live.getState().version).toBe(expected))
        }
        const latest = live.getState().thread as Thread
        stop()
        expect(latest.nextSeq).toBe(whole.nextSeq)
        expect(latest.entries).toEqual((await stores.threads.load(id)).entries)
        // No commit rebuilt the index: the one built at load grew entry by entry.
        expect(latest.index).toBe(index)
        expect(latest.index).toEqual(rebuilt(latest).index)
        // Each commit gave a new version, and each version kept its own length.
        for (const version of seen) expect(version.index).toEqual(rebuilt(version).index)
      }),
      { numRuns: 40, seed },
    )
  })
})

describe('LiveThread record', () => {
  it('carries the stored record, follows renames, and drops it when the thread is deleted', async () => {
    const { threads } = createMemoryBackedStores()
    const { id } = await threads.create({ title: 'first' })
    const live = new LiveThread(threads, id)
    const stop = live.subscribe(() => {})
    await vi.waitFor(() => expect(live.getState().record?.title).toBe('first'))
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'hi' } })
    await vi.waitFor(() => expect(live.getState().version).toBe(1))
    await threads.rename(id, 'second')
    await vi.waitFor(() => expect(live.getState().record).toMatchObject({ title: 'second', rev: 1 }))
    await threads.delete(id)
    await vi.waitFor(() => expect(live.getState().status).toBe('deleted'))
    expect(live.getState().record).toBeUndefined()
    stop()
  })
})

describe('LiveThread after a rebase', () => {
  it('loads the thread again when a sync moves stored entries, keeping the old one on screen until then', async () => {
    const { threads } = createMemoryBackedStores()
    const { id } = await threads.create()
    const message = (entryId: string) => ({ id: entryId, createdAt: 1, kind: 'message', payload: { role: 'user', content: entryId } }) as const
    await threads.appendMany(id, [message('a'), message('pending')])
    const live = new LiveThread(threads, id)
    const shown: (readonly string[] | undefined)[] = []
    const stop = live.subscribe((snapshot) => shown.push(snapshot.thread?.entries.map((entry) => entry.id)))
    await vi.waitFor(() => expect(live.getState().status).toBe('ready'))
    await threads.placeSynced(id, 1, [message('remote')])
    await vi.waitFor(() => expect(live.getState().thread?.entries.map((entry) => entry.id)).toEqual(['a', 'remote', 'pending']))
    expect(live.getState().thread?.entries).toEqual((await threads.load(id)).entries)
    // Never a snapshot without the thread in between.
    expect(shown.filter((ids) => ids === undefined)).toEqual([])
    // Appends after it extend the reloaded thread.
    await threads.append(id, message('next'))
    await vi.waitFor(() => expect(live.getState().version).toBe(4))
    expect(live.getState().thread?.entries).toEqual((await threads.load(id)).entries)
    stop()
  })
})
