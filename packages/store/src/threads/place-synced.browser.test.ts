import { InvalidEntryError } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { followThread } from '../testing/follow-thread'
import { browserDatabaseName } from '../testing/browser-stores'
import type { SyncedEntry, ThreadStoreEvent } from './thread-store'

// Real Chromium, real IndexedDB: two connections to one database, as two tabs of the app have.
const at = 1_800_000_000_000
const user = (id: string): SyncedEntry => ({ id, createdAt: at, kind: 'message', payload: { role: 'user', content: `message ${id}` } })
const call = (id: string, toolCallId: string): SyncedEntry => ({
  id,
  createdAt: at,
  kind: 'tool_call',
  payload: { name: 'weather', arguments: { city: 'Oslo' } },
  refs: { callId: `m-${toolCallId}`, toolCallId },
})
const result = (id: string, toolCallId: string): SyncedEntry => ({
  id,
  createdAt: at,
  kind: 'tool_result',
  payload: { name: 'weather', result: { celsius: 4 } },
  refs: { callId: `m-${toolCallId}`, toolCallId },
})

function twoTabs(label: string) {
  const name = browserDatabaseName(label)
  const first = new ThreadlensDB({ name })
  const second = new ThreadlensDB({ name })
  return { first: createThreadStore(first), second: createThreadStore(second), close: () => [first, second].forEach((db) => db.close()) }
}

describe('placeSynced across tabs (real Chromium)', () => {
  it("a rebase in one tab reaches the other tab's subscriber, which ends equal to load()", async () => {
    const { first, second, close } = twoTabs('rebase')
    const { id } = await first.create({ title: 'synced' })
    // Agreed: a, b. Pending in the first tab: p (a question), then a tool call and its result.
    await first.appendMany(id, [user('a'), user('b'), user('p'), call('pc', 't1'), result('pr', 't1')])
    const start = (await second.load(id)).entries
    const other = followThread(second, id, start)
    const sameTabEvents: ThreadStoreEvent[] = []
    const stopSameTab = first.subscribe(id, (event) => sameTabEvents.push(event), { afterSeq: start.length - 1 })
    // The stream put another device's turn (with its own tool pair) before the pending tail.
    const placed = await first.placeSynced(id, 2, [user('r1'), call('rc', 't2'), result('rr', 't2'), user('b')])
    expect(placed.moved).toBe(3)
    const stored = (await first.load(id)).entries
    expect(stored.map((entry) => entry.id)).toEqual(['a', 'b', 'r1', 'rc', 'rr', 'p', 'pc', 'pr'])
    await expect.poll(() => other.entries(), { timeout: 5_000 }).toEqual(stored)
    expect(other.rebases()).toBe(1)
    await expect.poll(() => sameTabEvents, { timeout: 5_000 }).toEqual([{ type: 'thread-rebase', threadId: id, fromSeq: 2, lastSeq: 7 }])
    // Appends go on as usual afterwards, from either tab.
    await second.placeSynced(id, 8, [user('r2')])
    await first.append(id, user('after'))
    const final = (await second.load(id)).entries
    await expect.poll(() => other.entries(), { timeout: 5_000 }).toEqual(final)
    expect(final.map((entry) => entry.seq)).toEqual(final.map((_entry, position) => position))
    expect(other.rebases()).toBe(1)
    other.stop()
    stopSameTab()
    close()
  })

  it('a placement that breaks the append rules writes nothing, in either tab', async () => {
    const { first, second, close } = twoTabs('refused')
    const { id } = await first.create()
    await first.appendMany(id, [user('a'), call('c', 't1'), result('r', 't1'), user('p')])
    const before = await second.load(id)
    const record = await second.get(id)
    const other = followThread(first, id, before.entries)
    // The stored result would come before its call: refused, named, nothing written.
    const error = await second.placeSynced(id, 1, [user('x'), result('r', 't1')]).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidEntryError)
    expect((error as Error).message).toMatch(/synced entry 1 of 2/)
    // A new result for a call nobody has: refused too.
    await expect(second.placeSynced(id, 4, [result('y', 'nobody')])).rejects.toBeInstanceOf(InvalidEntryError)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await first.load(id)).entries).toEqual(before.entries)
    expect(await first.get(id)).toEqual(record)
    expect(other.entries()).toEqual(before.entries)
    expect(other.rebases()).toBe(0)
    other.stop()
    close()
  })
})
