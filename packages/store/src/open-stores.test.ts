import { describe, expect, it } from 'vitest'
import { StorageUnavailableError } from './errors'
import { openThreadlensStores } from './open-stores'

// No fake-indexeddb here: this file runs in Node, where there is no IndexedDB at all.
describe('openThreadlensStores without IndexedDB', () => {
  it('falls back to in-memory stores with the same API and says so', async () => {
    expect(globalThis.indexedDB).toBeUndefined()
    const stores = await openThreadlensStores({ name: 'app' })
    expect(stores.persistent).toBe(false)
    expect(stores.unavailable).toBeInstanceOf(StorageUnavailableError)
    expect(stores.unavailable?.message).toMatch(/IndexedDB is not available/)
    const { id } = await stores.threads.create({ title: 'offline' })
    expect((await stores.threads.append(id, { kind: 'message', payload: { role: 'user', content: 'hi' } })).seq).toBe(0)
    expect((await stores.memory.world.put('agent', 'k', 1)).rev).toBe(1)
  })
})
