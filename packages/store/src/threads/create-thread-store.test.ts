import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import type { ThreadRow } from '../database/rows'
import { ThreadlensDB } from '../database/threadlens-db'
import { ThreadNotFoundError } from '../errors'
import { createThreadStore } from './create-thread-store'
import { describeStoreContract } from '../testing/thread-store-contract'
import { openTestStores } from '../testing/test-database'

describeStoreContract('IndexedDB (fake-indexeddb)', async (options) => openTestStores('contract', options))

describe('rows written by an earlier version (no tags, model, policy name, rev or bytes)', () => {
  it('read with the defaults, and take updates and appends', async () => {
    const { db, threads } = openTestStores('old-rows')
    const { id } = await threads.create({ title: 'old' })
    const { tags: _tags, model: _model, policyName: _policyName, rev: _rev, bytes: _bytes, ...oldRow } = (await db.threads.get(id)) as ThreadRow
    await db.threads.put(oldRow as ThreadRow)
    expect(await threads.get(id)).toMatchObject({ title: 'old', tags: [], model: null, policyName: null, rev: 0 })
    expect(await threads.rename(id, 'renamed', { expectedRev: 0 })).toMatchObject({ title: 'renamed', rev: 1 })
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'hi' } })
    expect((await db.threads.get(id))?.bytes).toBeGreaterThan(0)
    db.close()
  })
})

describe('an append over the row this tab wrote last (reads and writes in one round trip)', () => {
  const user = (content: string) => ({ kind: 'message', payload: { role: 'user', content } }) as const

  it('keeps what another tab changed meanwhile: its rename, its entries, its delete', async () => {
    const { db, threads } = openTestStores('known-row')
    // Another tab: its own connection to the same database, and its own store.
    const otherDb = new ThreadlensDB({ name: db.name })
    const other = createThreadStore(otherDb)
    const { id } = await threads.create({ title: 'first' })
    await threads.append(id, user('mine 0'))
    await other.rename(id, 'renamed elsewhere')
    await threads.append(id, user('mine 1'))
    await other.append(id, user('theirs 2'))
    await threads.append(id, user('mine 3'))
    expect(await threads.get(id)).toMatchObject({ title: 'renamed elsewhere', entryCount: 4, lastSeq: 3 })
    const thread = await threads.load(id)
    expect(thread.entries.map((entry) => [entry.seq, (entry.payload as { content: string }).content])).toEqual([
      [0, 'mine 0'],
      [1, 'mine 1'],
      [2, 'theirs 2'],
      [3, 'mine 3'],
    ])
    await other.delete(id)
    await expect(threads.append(id, user('too late'))).rejects.toBeInstanceOf(ThreadNotFoundError)
    expect(await db.entries.count()).toBe(0)
    otherDb.close()
    db.close()
  })

  it('writes nothing when its write fails, and the store goes on from the stored row', async () => {
    const { db, threads } = openTestStores('known-row-failure')
    const { id } = await threads.create()
    await threads.append(id, user('0'))
    const put = vi.spyOn(db.threads, 'put').mockImplementationOnce(() => Promise.reject(new Error('disk on fire')) as never)
    // The known-row attempt fails; the usual path reads the row and writes.
    await threads.append(id, user('1'))
    expect(put).toHaveBeenCalledTimes(2)
    put.mockRestore()
    expect((await threads.load(id)).entries.map((entry) => entry.seq)).toEqual([0, 1])
    expect(await threads.get(id)).toMatchObject({ entryCount: 2, lastSeq: 1 })
    db.close()
  })
})
