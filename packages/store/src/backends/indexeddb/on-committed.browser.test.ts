import { Dexie } from 'dexie'
import { describe, expect, it, vi } from 'vitest'
import { ThreadlensDB } from './threadlens-db'

// Real Chromium: the order of a transaction's `complete` listeners is the browser's.
describe('onCommitted', () => {
  it('runs once a write transaction commits, before Dexie tells live queries and settles the transaction', async () => {
    const db = new ThreadlensDB({ name: `threadlens-on-committed-${crypto.randomUUID()}` })
    await db.open()
    const order: string[] = []
    const live = db.dexieRuntime.liveQuery(() => db.memory.count()).subscribe({ next: (count) => order.push(`live ${count}`) })
    // Dexie announces a commit to live queries (in this tab and others) from its own completion handler.
    const mutated = () => order.push('announced')
    Dexie.on('storagemutated', mutated)
    await new Promise((resolve) => setTimeout(resolve, 20))
    order.length = 0
    await db
      .transaction('rw', [db.memory], async () => {
        await db.memory.put({ id: 'a', rev: 1, spaces: {}, updatedAt: 1 } as never)
        db.onCommitted(() => order.push('committed'))
        order.push('written')
      })
      .then(() => order.push('settled'))
    // The live query reads again after the commit: wait for its answer (a busy machine takes longer than a few ms), then check the whole order.
    await vi.waitFor(() => expect(order).toContain('live 1'), { timeout: 5_000 })
    expect(order).toEqual(['written', 'committed', 'announced', 'settled', 'live 1'])
    Dexie.on('storagemutated').unsubscribe(mutated)
    live.unsubscribe()
    db.close()
  })

  it('never runs when the transaction aborts, nor outside a write transaction', async () => {
    const db = new ThreadlensDB({ name: `threadlens-on-committed-abort-${crypto.randomUUID()}` })
    await db.open()
    const calls: string[] = []
    db.onCommitted(() => calls.push('outside'))
    await expect(
      db.transaction('rw', [db.memory], async () => {
        await db.memory.put({ id: 'a', rev: 1, spaces: {}, updatedAt: 1 } as never)
        db.onCommitted(() => calls.push('aborted'))
        throw new Error('give up')
      }),
    ).rejects.toThrow('give up')
    await db.transaction('r', [db.memory], async () => {
      db.onCommitted(() => calls.push('read-only'))
      await db.memory.count()
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(calls).toEqual([])
    expect(await db.memory.count()).toBe(0)
    db.close()
  })
})
