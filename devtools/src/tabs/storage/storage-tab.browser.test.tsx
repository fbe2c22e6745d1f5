import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DevtoolsSyncStatus } from '../../panel/panel-props'
import { conversation, eventually, renderPanel } from '../../testing/panel-harness'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('Storage tab', () => {
  it('shows usage and quota, and exports the thread as JSONL and the projection as JSON', async () => {
    const blobs: Blob[] = []
    const names: string[] = []
    const createObjectURL = URL.createObjectURL.bind(URL)
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob)
      return createObjectURL(blob)
    })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download)
    })
    const panel = await renderPanel({ entries: conversation(2), tab: 'storage' })
    await eventually(() => expect(panel.query('[data-testid="storage-usage"]')?.textContent).toMatch(/MB of .*MB/))
    expect(panel.query('[data-testid="storage-persistent"]')?.textContent).toContain('in memory only')
    await eventually(() => expect(panel.query('[data-testid="storage-thread"]')?.textContent).toMatch(/^6 entries/))
    expect(panel.query('[data-testid="storage-persisted"]')?.textContent).toMatch(/yes|no|unknown/)

    await panel.click('export-thread')
    await eventually(() => expect(names).toEqual([`${panel.threadId}.jsonl`]))
    const lines = (await (blobs[0] as Blob).text()).trim().split('\n')
    expect(lines.length).toBe(1 + conversation(2).length)
    expect(JSON.parse(lines[1] as string).seq).toBe(0)

    await eventually(() => expect((panel.query('[data-testid="export-projection"]') as HTMLButtonElement).disabled).toBe(false))
    await panel.click('export-projection')
    await eventually(() => expect(names.length).toBe(2))
    expect(names[1]).toBe(`${panel.threadId}-projection.json`)
    const projection = JSON.parse(await (blobs[1] as Blob).text())
    expect(projection.messages.length).toBeGreaterThan(0)
    expect(projection.meta.includedSeqs.length).toBe(conversation(2).length)
    panel.unmount()
  })

  it('is live: the entry count and the record follow appends, and storage usage is read again', async () => {
    const panel = await renderPanel({ entries: conversation(2), tab: 'storage' })
    await eventually(() => expect(panel.query('[data-testid="storage-thread"]')?.textContent).toMatch(/^6 entries/))
    const estimate = vi.spyOn(navigator.storage, 'estimate')
    for (let batch = 0; batch < 5; batch++) {
      await panel.stores.threads.appendMany(panel.threadId, [
        { kind: 'message', payload: { role: 'user', content: `more ${batch}` } },
        { kind: 'message', payload: { role: 'assistant', content: `answer ${batch}` } },
        { kind: 'message', payload: { role: 'user', content: `thanks ${batch}` } },
      ])
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    // 6 + 5 × 3 entries: the count is there as soon as the entries are, without reopening the tab.
    await eventually(() => expect(panel.query('[data-testid="storage-thread"]')?.textContent).toMatch(/^21 entries/))
    // Usage is read again while appends go on, but not once per append.
    await eventually(() => expect(estimate.mock.calls.length).toBeGreaterThan(0))
    expect(estimate.mock.calls.length).toBeLessThan(5)
    panel.unmount()
  })

  it("shows the app's sync status as text, live, and says sync is off without one", async () => {
    let status: DevtoolsSyncStatus = { state: 'pending', pending: 3, error: null, lastSyncedAt: null }
    const listeners = new Set<() => void>()
    const set = (next: DevtoolsSyncStatus) => {
      status = next
      for (const listener of listeners) listener()
    }
    const sync = {
      getSnapshot: () => status,
      subscribe(listener: () => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    }
    const panel = await renderPanel({ entries: conversation(1), tab: 'storage', sync })
    const cell = () => panel.query('[data-testid="storage-sync"]')
    await eventually(() => expect(cell()?.textContent).toBe('pending 3'))
    set({ state: 'offline', pending: 3, error: { message: 'The sync server did not answer <b>GET</b>' }, lastSyncedAt: null })
    await eventually(() => expect(cell()?.textContent).toBe('offline: The sync server did not answer <b>GET</b>'))
    expect(cell()?.querySelector('b')).toBeNull()
    set({ state: 'synced', pending: 0, error: null, lastSyncedAt: Date.UTC(2026, 0, 2, 3, 4, 5) })
    await eventually(() => expect(cell()?.textContent).toBe('synced at 2026-01-02T03:04:05.000Z'))
    expect(panel.query('[data-testid="storage-sync-notices"]')).toBeNull()
    set({
      state: 'synced',
      pending: 0,
      error: null,
      lastSyncedAt: null,
      conflicts: [{ message: 'Memory "agent" space "world" was written on another device first' }],
      recovered: [{ from: 't1', to: 't2' }],
      rejected: [{ message: 'first' }, { message: 'Sync refused <i>entry</i> x' }],
    })
    await eventually(() =>
      expect([...(panel.query('[data-testid="storage-sync-notices"]')?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
        'memory conflict: Memory "agent" space "world" was written on another device first',
        'thread t1 was deleted on another device: its unsynced entries are in thread t2',
        '2 stream messages refused; the newest: Sync refused <i>entry</i> x',
      ]),
    )
    expect(cell()?.querySelector('i')).toBeNull()
    panel.unmount()
    expect(listeners.size).toBe(0)

    const without = await renderPanel({ entries: conversation(1), tab: 'storage' })
    await eventually(() => expect(without.query('[data-testid="storage-sync"]')?.textContent).toMatch(/^off/))
    without.unmount()
  })
})
