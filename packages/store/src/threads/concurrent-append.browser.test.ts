import { describe, expect, it } from 'vitest'
import { openTab } from '../testing/tab-protocol'
import type { ThreadStoreEvent } from './thread-store'
import { openTabs, threadInNewDatabase } from '../testing/browser-stores'
import { appendedSeqs } from '../testing/follow-thread'

// Real Chromium. The concurrent writers are Web Workers: each has its own IndexedDB connection and
// runs in parallel with the others, as tabs do (multi-page Playwright tests in e2e/store-tabs.spec.ts
// check the same with real tabs).

describe('two writers appending at once (real Chromium)', () => {
  it('2 workers × 1,000 appends → 2,000 entries, seq 0..1999, no gaps, no duplicates, each writer in order', async () => {
    const { name, db, threads, id } = await threadInNewDatabase('concurrent', 'race')
    const { seqs: seen, stop } = appendedSeqs(threads, id)

    const tabs = await openTabs(name, 2)
    const [first, second] = await Promise.all(
      tabs.map((tab, index) => tab.send<number[]>({ type: 'append-sequential', threadId: id, count: 1000, label: `tab${index}` })),
    )

    const thread = await threads.load(id)
    expect(thread.entries).toHaveLength(2000)
    expect(thread.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 2000 }, (_, seq) => seq))
    expect(new Set([...(first ?? []), ...(second ?? [])]).size).toBe(2000)
    // Each writer's entries keep its own order, and the writers really interleaved.
    for (const label of ['tab0', 'tab1']) {
      const mine = thread.entries.filter((entry) => entry.kind === 'message' && entry.payload.content.startsWith(`${label} `))
      expect(mine.map((entry) => (entry.kind === 'message' ? Number(entry.payload.content.split(' ')[1]) : -1))).toEqual(
        Array.from({ length: 1000 }, (_, n) => n),
      )
    }
    const writerOf = (position: number) => {
      const entry = thread.entries[position]
      return entry?.kind === 'message' ? entry.payload.content.split(' ')[0] : undefined
    }
    expect(new Set(Array.from({ length: 1000 }, (_, position) => writerOf(position))).size).toBe(2)
    expect(await threads.get(id)).toMatchObject({ entryCount: 2000, lastSeq: 1999 })
    // The subscriber in this "tab" saw every committed entry once, in order.
    await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(2000)
    expect(seen).toEqual(Array.from({ length: 2000 }, (_, seq) => seq))
    stop()
    tabs.forEach((tab) => tab.close())
    db.close()
  }, 120_000)

  it("a subscriber sees another writer's commits, and never an aborted transaction", async () => {
    const { name, db, threads, id } = await threadInNewDatabase('subscribe')
    const events: ThreadStoreEvent[] = []
    const stop = threads.subscribe(id, (event) => events.push(event), { afterSeq: -1 })
    const tab = openTab()
    await tab.send({ type: 'open', name })
    await tab.send({ type: 'append-many', threadId: id, inputs: [{ kind: 'message', payload: { role: 'user', content: 'one' } }] })
    await tab.send({ type: 'aborted-append', threadId: id })
    await expect(
      tab.send({
        type: 'append-many',
        threadId: id,
        inputs: [
          { kind: 'message', payload: { role: 'user', content: 'bad' } },
          { kind: 'tool_result', payload: { name: 'x', result: 1 }, refs: { toolCallId: 'none' } },
        ],
      }),
    ).rejects.toMatchObject({ name: 'InvalidEntryError' })
    await tab.send({ type: 'append-many', threadId: id, inputs: [{ kind: 'message', payload: { role: 'user', content: 'two' } }] })

    const contents = () =>
      events.flatMap((event) =>
        event.type === 'entry-append' ? event.entries.map((entry) => (entry.kind === 'message' ? entry.payload.content : '')) : [],
      )
    await expect.poll(contents, { timeout: 10_000 }).toEqual(['one', 'two'])
    expect((await threads.load(id)).entries.map((entry) => entry.seq)).toEqual([0, 1])
    stop()
    tab.close()
    db.close()
  }, 60_000)
})
