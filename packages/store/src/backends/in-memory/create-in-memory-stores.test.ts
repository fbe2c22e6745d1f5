import { expect, it } from 'vitest'
import { describeStoreContract } from '../../testing/thread-store-contract'
import { createMemoryBackedStores } from './create-in-memory-stores'

describeStoreContract('in-memory fallback', async (options) => createMemoryBackedStores(options))

it('says it is not persistent, so the UI can tell the user', () => {
  const stores = createMemoryBackedStores()
  expect(stores.persistent).toBe(false)
  expect(stores.threads.persistent).toBe(false)
  expect(stores.memory.persistent).toBe(false)
})
