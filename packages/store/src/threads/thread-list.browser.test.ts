import { describe, expect, it } from 'vitest'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { openTab } from '../testing/tab-protocol'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'

// Real Chromium; the other "tab" is a Web Worker with its own IndexedDB connection.
describe('thread records across tabs (real Chromium)', () => {
  it("the live list follows another tab's creates and renames, and a stale rename there conflicts", async () => {
    const name = `threadlens-browser-list-${crypto.randomUUID()}`
    const db = new ThreadlensDB({ name })
    const threads = createThreadStore(db)
    const titles: string[][] = []
    const stop = threads.subscribeList((event) => {
      if (event.type === 'list-update') titles.push(event.threads.map((thread) => `${thread.title}@${thread.rev}`))
    })
    await expect.poll(() => titles.at(-1)).toEqual([])

    const tab = openTab()
    try {
      await tab.send({ type: 'open', name })
      const created = await tab.send<{ id: string }>({ type: 'thread-create', title: 'from the other tab' })
      await expect.poll(() => titles.at(-1)).toEqual(['from the other tab@0'])
      await tab.send({ type: 'thread-rename', threadId: created.id, title: 'renamed there', expectedRev: 0 })
      await expect.poll(() => titles.at(-1)).toEqual(['renamed there@1'])

      await threads.rename(created.id, 'renamed here', { expectedRev: 1 })
      const conflict = await tab
        .send({ type: 'thread-rename', threadId: created.id, title: 'stale', expectedRev: 1 })
        .catch((error: unknown) => error)
      expect(conflict).toMatchObject({ name: 'RevisionConflictError', target: { kind: 'thread-record' }, expected: 1, actual: 2 })
      await expect.poll(() => titles.at(-1)).toEqual(['renamed here@2'])
      expect((await threads.get(created.id))?.title).toBe('renamed here')
    } finally {
      stop()
      tab.close()
      db.close()
    }
  })
})
