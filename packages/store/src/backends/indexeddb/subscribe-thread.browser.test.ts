import { describe, expect, it } from 'vitest'
import { ThreadlensDB } from './threadlens-db'
import { createThreadStore } from './create-thread-store'
import { browserDatabaseName } from '../../testing/browser-stores'
import { appendedSeqs } from '../../testing/follow-thread'
import type { ThreadStoreEvent } from '../../threads/thread-store'

// Real Chromium: Dexie's change signal, this tab's commits and a second connection (as another tab has).
const message = (content: string) => ({ kind: 'message', payload: { role: 'user', content } }) as const

/** A database whose read-only reads of the `threads` table are counted: the subscription's re-reads. */
function countingDatabase(name: string): { db: ThreadlensDB; rowReads: () => number } {
  const db = new ThreadlensDB({ name })
  let reads = 0
  db.use({
    stack: 'dbcore',
    name: 'count-row-reads',
    create: (down) => ({
      ...down,
      table: (tableName) => {
        const table = down.table(tableName)
        if (tableName !== 'threads') return table
        return {
          ...table,
          get: (request) => {
            if ((request.trans as unknown as IDBTransaction).mode === 'readonly') reads++
            return table.get(request)
          },
        }
      },
    }),
  })
  return { db, rowReads: () => reads }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

describe('a thread subscription (real Chromium)', () => {
  it("gets this tab's appends at their commit and reads nothing more for them", async () => {
    const { db, rowReads } = countingDatabase(browserDatabaseName('own-appends'))
    const threads = createThreadStore(db)
    const { id } = await threads.create({ title: 'mine' })
    // From a known seq (as a live view that has loaded the thread subscribes): this tab's commits go straight to it.
    const { seqs, stop } = appendedSeqs(threads, id)
    await settle()
    const readsAtStart = rowReads()
    expect(readsAtStart).toBeGreaterThan(0)
    const readsAfter: number[] = []
    for (let index = 0; index < 5; index++) {
      await threads.append(id, message(`m${index}`))
      await settle()
      readsAfter.push(rowReads() - readsAtStart)
    }
    await threads.appendMany(id, [message('a'), message('b')])
    await settle()
    expect(readsAfter).toEqual([0, 0, 0, 0, 0])
    expect(seqs).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(rowReads() - readsAtStart).toBe(0)
    stop()
    db.close()
  })

  it("reads another connection's appends, and this tab's renames, after their commit", async () => {
    const name = browserDatabaseName('other-appends')
    const { db, rowReads } = countingDatabase(name)
    const threads = createThreadStore(db)
    const other = new ThreadlensDB({ name })
    const otherThreads = createThreadStore(other)
    const { id } = await threads.create({ title: 'shared' })
    const events: ThreadStoreEvent[] = []
    const stop = threads.subscribe(id, (event) => events.push(event), { records: true })
    await settle()
    const readsAtStart = rowReads()
    await otherThreads.append(id, message('from the other tab'))
    await threads.append(id, message('from this tab'))
    await otherThreads.appendMany(id, [message('x'), message('y')])
    await threads.rename(id, 'renamed here')
    await expect
      .poll(() => events.flatMap((event) => (event.type === 'entry-append' ? event.entries.map((entry) => entry.seq) : [])), { timeout: 5_000 })
      .toEqual([0, 1, 2, 3])
    await expect
      .poll(() => events.some((event) => event.type === 'record-update' && event.record.title === 'renamed here'), { timeout: 5_000 })
      .toBe(true)
    expect(rowReads()).toBeGreaterThan(readsAtStart)
    stop()
    other.close()
    db.close()
  })
})
