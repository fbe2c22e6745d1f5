import { describe, expect, it } from 'vitest'
import type { ThreadRow } from '../../rows'
import { describeStoreContract } from '../../testing/thread-store-contract'
import { openTestStores } from '../../testing/test-database'

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
