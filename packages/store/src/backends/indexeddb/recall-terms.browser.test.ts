import { createRecallIndex } from '@threadlens/core/recall'
import { openTabs, threadInNewDatabase } from '../../testing/browser-stores'
import { describe, expect, it } from 'vitest'
import type { Tab } from '../../testing/tab-protocol'

// Real Chromium: the recall terms are written by whichever tab appends (Web Workers with their own
// IndexedDB connections, as tabs have), in the entry's transaction; an index restored in any tab
// afterwards is the index of the whole thread.

describe('recall terms written by two tabs at once (real Chromium)', () => {
  it('2 workers × 200 appends and an aborted append → the terms of each entry once, in chunks, and a restored index that searches as one built from the entries', async () => {
    const { name, db, threads, id } = await threadInNewDatabase('recall-terms', 'race')
    const tabs = await openTabs(name, 2)
    // Each tab asks for the index once (the terms' code loads), as an app that recalls does.
    expect(await Promise.all(tabs.map((tab) => tab.send<number>({ type: 'recall-index', threadId: id })))).toEqual([-1, -1])
    await Promise.all(tabs.map((tab, index) => tab.send<number[]>({ type: 'append-sequential', threadId: id, count: 200, label: `writer${index}` })))
    await (tabs[0] as Tab).send({ type: 'aborted-append', threadId: id })

    const thread = await threads.load(id)
    expect(thread.entries).toHaveLength(400)
    // Each entry's terms are in exactly one chunk, at its seq, whichever tab wrote it.
    const chunks = await db.recallTerms.where('[threadId+firstSeq]').between([id, 0], [id, Number.MAX_SAFE_INTEGER]).toArray()
    expect(chunks.flatMap((chunk) => chunk.ids.map((_id, position) => chunk.firstSeq + position))).toEqual(thread.entries.map((entry) => entry.seq))
    expect(chunks.flatMap((chunk) => chunk.ids)).toEqual(thread.entries.map((entry) => entry.id))
    expect(chunks.length).toBeLessThan(400 / 8)

    const restored = await threads.recallIndex(id)
    expect(restored.indexedThrough).toBe(399)
    const built = createRecallIndex()
    built.sync(thread.entries)
    for (const query of ['writer0 17', 'writer1', '199']) {
      const request = { entries: thread.entries, query, from: 0, before: 400, limit: 20 }
      expect(restored.search(request)).toEqual(built.search(request))
    }
    tabs.forEach((tab) => tab.close())
    db.close()
  }, 120_000)
})
