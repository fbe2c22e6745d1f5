import { InvalidEntryError, type EntryInput } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { createMemoryBackedStores } from '../backends/in-memory/create-in-memory-stores'
import { ThreadFullError, ThreadNotFoundError } from '../errors'
import { openTestStores } from '../testing/test-database'
import { deterministicOptions, eventsReach } from '../testing/thread-store-contract'
import type { SyncedEntry, ThreadStore, ThreadStoreEvent, ThreadStoreOptions } from './thread-store'

const user = (id: string, content = id): SyncedEntry => ({ id, createdAt: 1_800_000_000_000, kind: 'message', payload: { role: 'user', content } })
const call = (id: string, toolCallId: string): SyncedEntry => ({
  id,
  createdAt: 1_800_000_000_000,
  kind: 'tool_call',
  payload: { name: 'weather', arguments: {} },
  refs: { toolCallId },
})
const result = (id: string, toolCallId: string): SyncedEntry => ({
  id,
  createdAt: 1_800_000_000_000,
  kind: 'tool_result',
  payload: { name: 'weather', result: 4 },
  refs: { toolCallId },
})
const input = (entry: SyncedEntry): EntryInput => entry

const backends: readonly { name: string; open: (options: ThreadStoreOptions) => { threads: ThreadStore } }[] = [
  { name: 'in memory', open: (options) => createMemoryBackedStores(options) },
  { name: 'IndexedDB (fake-indexeddb)', open: (options) => openTestStores('place-synced-cases', options) },
]

describe.each(backends)('placeSynced: $name', ({ open }) => {
  /** A thread of `a`, `b` (agreed) then `p`, `q` (this device's pending tail). */
  const pendingThread = async (options: ThreadStoreOptions = deterministicOptions()) => {
    const { threads } = open(options)
    const { id } = await threads.create()
    await threads.appendMany(id, [user('a'), user('b'), user('p'), user('q')].map(input))
    return { threads, id, ids: async () => (await threads.load(id)).entries.map((entry) => entry.id) }
  }

  it('puts remote entries before the pending tail and moves the tail up; subscribers hear a rebase', async () => {
    const { threads, id, ids } = await pendingThread()
    const events: ThreadStoreEvent[] = []
    const stop = threads.subscribe(id, (event) => events.push(event), { afterSeq: 3 })
    const placed = await threads.placeSynced(id, 2, [user('r1'), user('a'), user('q'), user('r2')])
    expect(await ids()).toEqual(['a', 'b', 'r1', 'q', 'r2', 'p'])
    expect(placed.added.map((entry) => [entry.id, entry.seq])).toEqual([
      ['r1', 2],
      ['r2', 4],
    ])
    // q keeps seq 3; p goes from 2 to 5.
    expect(placed.moved).toBe(1)
    expect(placed.entries.map((entry) => entry.id)).toEqual(['r1', 'q', 'r2', 'p'])
    await eventsReach(events, 1)
    expect(events).toEqual([{ type: 'thread-rebase', threadId: id, fromSeq: 2, lastSeq: 5 }])
    expect(await threads.get(id)).toMatchObject({ entryCount: 6, lastSeq: 5 })
    stop()
  })

  it('at the end it is an append: subscribers hear entry-append, entries already stored are skipped', async () => {
    const { threads, id, ids } = await pendingThread()
    const events: ThreadStoreEvent[] = []
    const stop = threads.subscribe(id, (event) => events.push(event), { afterSeq: 3 })
    const placed = await threads.placeSynced(id, 2, [user('p'), user('q'), user('r1')])
    expect(placed).toMatchObject({ moved: 0 })
    expect(await ids()).toEqual(['a', 'b', 'p', 'q', 'r1'])
    await eventsReach(events, 1)
    expect(events.map((event) => event.type)).toEqual(['entry-append'])
    expect(events[0]).toMatchObject({ entries: [{ id: 'r1', seq: 4 }] })
    // Everything already there: nothing written, nothing heard.
    expect(await threads.placeSynced(id, 5, [user('a'), user('r1')])).toEqual({ added: [], moved: 0, entries: [] })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(events).toHaveLength(1)
    stop()
  })

  it('refuses a keep outside the thread, an unknown thread, entries without ids or given twice, writing nothing', async () => {
    const { threads, id, ids } = await pendingThread()
    for (const keep of [-1, 1.5, 5, Number.NaN])
      await expect(threads.placeSynced(id, keep, [user('r')])).rejects.toMatchObject({ name: 'InvalidEntryError', field: 'keep' })
    await expect(threads.placeSynced('missing', 0, [user('r')])).rejects.toBeInstanceOf(ThreadNotFoundError)
    const { id: _id, ...withoutId } = user('r')
    await expect(threads.placeSynced(id, 4, [withoutId as SyncedEntry])).rejects.toMatchObject({ name: 'InvalidEntryError', field: 'id' })
    await expect(threads.placeSynced(id, 4, [user('r'), user('r')])).rejects.toThrow(/id "r" is given twice \(synced entry 1 of 2/)
    await expect(
      threads.placeSynced(id, 4, [{ ...user('r'), payload: { role: 'robot', content: 'x' } } as unknown as SyncedEntry]),
    ).rejects.toMatchObject({ field: 'payload.role' })
    expect(await ids()).toEqual(['a', 'b', 'p', 'q'])
  })

  it('checks the new order with the append rules and names the entry that breaks them', async () => {
    const { threads } = open(deterministicOptions())
    const { id } = await threads.create()
    await threads.appendMany(id, [user('a'), call('c', 't1'), result('r', 't1')].map(input))
    // The stored result moved before its call, which stays after it.
    const early = await threads.placeSynced(id, 1, [result('r', 't1')]).catch((error: unknown) => error)
    expect(early).toBeInstanceOf(InvalidEntryError)
    expect((early as Error).message).toMatch(/no tool call "t1" precedes this result.*synced entry 0 of 1/)
    // A new call with the id of a stored call that now comes after it: the stored one is named.
    await expect(threads.placeSynced(id, 1, [call('c2', 't1')])).rejects.toThrow(/already exists.*stored entry "c", at seq 2/)
    // A pair placed before the stored tail is fine; the stored pair follows.
    await threads.placeSynced(id, 1, [call('c3', 't3'), result('r3', 't3')])
    expect((await threads.load(id)).entries.map((entry) => entry.id)).toEqual(['a', 'c3', 'r3', 'c', 'r'])
  })

  it('keeps the thread within the import limits', async () => {
    const { threads, id } = await pendingThread({ ...deterministicOptions(), importLimits: { maxEntries: 5 } })
    await expect(threads.placeSynced(id, 2, [user('r1'), user('r2')])).rejects.toBeInstanceOf(ThreadFullError)
    await expect(
      threads.placeSynced(
        id,
        2,
        Array.from({ length: 6 }, (_, index) => user(`r${index}`)),
      ),
    ).rejects.toBeInstanceOf(ThreadFullError)
    expect((await threads.placeSynced(id, 2, [user('r1')])).moved).toBe(2)
  })
})
