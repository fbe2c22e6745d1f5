import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InvalidStoreOptionsError, StorageError } from '../../errors'
import { uniqueName } from '../../testing/test-database'
import { createThreadStore } from './create-thread-store'
import { openThreadlensDB } from './open-database'
import { ThreadlensDB } from './threadlens-db'

describe('openThreadlensDB', () => {
  afterEach(() => {
    vi.doUnmock('./threadlens-db')
    vi.resetModules()
  })

  it('resolves to the database class of @threadlens/store/dexie, which the stores then use as before', async () => {
    const db = await openThreadlensDB({ name: uniqueName('open') })
    expect(db).toBeInstanceOf(ThreadlensDB)
    const threads = createThreadStore(db)
    const { id } = await threads.create({ title: 'lazy' })
    expect((await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'hi' } })).seq).toBe(0)
    db.close()
  })

  it('rejects bad options with the same typed error as before', async () => {
    const failure = await openThreadlensDB({ name: '' }).catch((error: unknown) => error)
    expect(InvalidStoreOptionsError.isInstance(failure)).toBe(true)
    expect((failure as Error).message).toMatch(/name the database/)
  })

  it('rejects with a StorageError saying what to do when the database code cannot be loaded', async () => {
    const offline = new TypeError('Failed to fetch dynamically imported module')
    vi.resetModules()
    vi.doMock('./threadlens-db', () => {
      throw offline
    })
    const { openThreadlensDB: openWithoutCode } = await import('./open-database')
    const failure = await openWithoutCode({ name: uniqueName('offline') }).catch((error: unknown) => error)
    expect(StorageError.isInstance(failure)).toBe(true)
    expect(failure).toMatchObject({ code: 'unknown', operation: 'open', message: expect.stringMatching(/could not be loaded.*reload the page/) })
    expect((failure as Error).cause).toBeDefined()
  })
})
