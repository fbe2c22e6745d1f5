import { StorageError } from '../../errors'
import type { EntryInput } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { openTestStores } from '../../testing/test-database'

const inputs = (count: number): EntryInput[] =>
  Array.from({ length: count }, (_, turn) => ({ kind: 'message', payload: { role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn}` } }))

describe('reading a long thread in pages', () => {
  it('loads every entry once, in seq order, across page boundaries', async () => {
    const { threads, db } = openTestStores('pages')
    const { id } = await threads.create()
    await threads.appendMany(id, inputs(2345))
    const thread = await threads.load(id)
    expect(thread.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 2345 }, (_, seq) => seq))
    expect(thread.entries[2344]?.payload).toMatchObject({ content: 'turn 2344' })
    db.close()
  })

  it('refuses a thread with an entry missing from storage, naming the page it is missing from', async () => {
    const { threads, db } = openTestStores('pages-missing')
    const { id } = await threads.create()
    await threads.appendMany(id, inputs(2100))
    await db.entries.delete([id, 1500])
    const failure = await threads.load(id).catch((error: unknown) => error)
    expect(StorageError.isInstance(failure) ? failure.code : failure).toBe('invalid-data')
    expect((failure as Error).message).toContain('between seq 1000 and 1999')
    db.close()
  })
})
