import 'fake-indexeddb/auto'
import type { Entry } from '@threadlens/core'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { openTestStores } from '../testing/test-database'
import { appendedSeqs } from '../testing/follow-thread'
import type { ThreadStoreEvent } from './thread-store'

const SEED = 20261123

const message = (text: string) => ({ kind: 'message' as const, payload: { role: 'user' as const, content: text } })

describe('same-tab delivery', () => {
  it('after a rebase, this tab’s own appends reach the subscriber at their commit again, from the rebase’s last seq', async () => {
    const { db, threads } = openTestStores('same-tab-rebase')
    const { id } = await threads.create({ title: 't' })
    await threads.appendMany(id, [
      { ...message('a'), id: 'a' },
      { ...message('p'), id: 'p' },
    ])
    const events: ThreadStoreEvent[] = []
    const stop = threads.subscribe(id, (event) => events.push(event), { afterSeq: 1 })
    await threads.placeSynced(id, 1, [{ ...message('r'), id: 'r', createdAt: 1 }])
    await vi.waitFor(() => expect(events).toEqual([{ type: 'thread-rebase', threadId: id, fromSeq: 1, lastSeq: 2 }]), { timeout: 5_000, interval: 5 })
    const appended = await threads.append(id, message('next'))
    // No wait: the commit itself brought it, right after the rebase's last seq.
    expect(events.at(-1)).toEqual({ type: 'entry-append', threadId: id, entries: [appended] })
    expect(appended.seq).toBe(3)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(events).toHaveLength(2)
    stop()
    db.close()
  })

  it('hands this tab’s own append to its subscribers by the time the append resolves', async () => {
    const { db, threads } = openTestStores('same-tab')
    const { id } = await threads.create({ title: 't' })
    const { seqs: seen, stop } = appendedSeqs(threads, id)
    for (let turn = 0; turn < 5; turn++) {
      await threads.append(id, message(`m${turn}`))
      // No wait for the change notification: the commit itself brought it.
      expect(seen).toEqual([...Array(turn + 1).keys()])
    }
    // The notifications that still come deliver nothing twice.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen).toEqual([0, 1, 2, 3, 4])
    stop()
    db.close()
  })

  it('reads no entries on the change notification of this tab’s own append; another tab’s are read', async () => {
    const { db, threads } = openTestStores('same-tab-no-reread')
    const otherDb = new ThreadlensDB({ name: db.name })
    const other = createThreadStore(otherDb)
    const { id } = await threads.create({ title: 't' })
    const { seqs: seen, stop } = appendedSeqs(threads, id)
    const reads = vi.spyOn(db.entries, 'where')
    for (let turn = 0; turn < 3; turn++) await threads.append(id, message(`m${turn}`))
    // Let the change notifications of those commits run.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reads).not.toHaveBeenCalled()
    await other.append(id, message('from the other tab'))
    await vi.waitFor(() => expect(seen).toEqual([0, 1, 2, 3]), { timeout: 5_000, interval: 5 })
    expect(reads).toHaveBeenCalled()
    stop()
    otherDb.close()
    db.close()
  })

  it(`delivers every entry once, in seq order, when this tab and another write in any interleaving (seed ${SEED})`, async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ tab: fc.constantFrom('this', 'other'), size: fc.integer({ min: 1, max: 3 }), wait: fc.boolean() }), {
          minLength: 1,
          maxLength: 10,
        }),
        async (writes) => {
          const { db, threads } = openTestStores(`interleave-${run++}`)
          // Another tab: its own connection to the same database, and its own store.
          const otherDb = new ThreadlensDB({ name: db.name })
          const other = createThreadStore(otherDb)
          const { id } = await threads.create({ title: 't' })
          const fromStart: Entry[] = []
          const later: Entry[] = []
          const collect = (into: Entry[]) => (event: ThreadStoreEvent) => {
            if (event.type === 'entry-append') into.push(...event.entries)
          }
          const stops = [threads.subscribe(id, collect(fromStart), { afterSeq: -1 }), threads.subscribe(id, collect(later))]
          const pending: Promise<unknown>[] = []
          let total = 0
          for (const write of writes) {
            const batch = Array.from({ length: write.size }, (_, offset) => message(`${write.tab} ${total + offset}`))
            total += write.size
            const written = (write.tab === 'this' ? threads : other).appendMany(id, batch)
            if (write.wait) await written
            else pending.push(written)
          }
          await Promise.all(pending)
          await vi.waitFor(() => expect(fromStart).toHaveLength(total), { timeout: 5_000, interval: 5 })
          expect(fromStart.map((entry) => entry.seq)).toEqual([...Array(total).keys()])
          // Without afterSeq it hears what was committed after it started (when, the first read decides):
          // a gapless, ascending run that ends at the last entry.
          await new Promise((resolve) => setTimeout(resolve, 20))
          if (later.length > 0) await vi.waitFor(() => expect(later.at(-1)?.seq).toBe(total - 1), { timeout: 5_000, interval: 5 })
          const seqs = later.map((entry) => entry.seq)
          expect(seqs).toEqual([...Array(seqs.length).keys()].map((offset) => (seqs[0] ?? 0) + offset))
          for (const stop of stops) stop()
          otherDb.close()
          db.close()
        },
      ),
      { numRuns: 25, seed: SEED },
    )
  })
})
