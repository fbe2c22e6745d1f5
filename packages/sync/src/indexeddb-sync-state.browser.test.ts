import { describe, expect, it } from 'vitest'
import { indexedDbSyncState } from './indexeddb-sync-state'
import { newMemoryState } from './memory-stream'
import { newThreadState } from './sync-state'

describe('indexedDbSyncState (real IndexedDB)', () => {
  it('keeps the device, threads and memories across a new instance (a reload), and clears them', async () => {
    const name = `sync-state-${crypto.randomUUID()}`
    const first = indexedDbSyncState({ name })
    const device = await first.loadDevice(() => 'device-1')
    expect(device.deviceId).toBe('device-1')
    const inflight = { epoch: 2, seq: 7, body: '[{"v":1}]', ids: ['e1', 'e2'] }
    await first.saveDevice({ ...device, indexOffset: '0000_0042', indexOutbox: [{ v: 1, type: 'changed', device: 'device-1', threadId: 't1' }] })
    await first.saveThread({ ...newThreadState('t1'), synced: 3, offset: '0000_0010', inflight, blobs: [['sha256-' + '0'.repeat(64), 'image/png']] })
    await first.saveMemory({ ...newMemoryState('agent'), unread: [{ opId: 'op1', space: 'world' }] })

    const second = indexedDbSyncState({ name })
    // A new instance never makes a second device id.
    expect(await second.loadDevice(() => 'device-2')).toMatchObject({
      deviceId: 'device-1',
      indexOffset: '0000_0042',
      indexOutbox: [{ threadId: 't1' }],
    })
    expect(await second.loadThreads()).toEqual([
      { ...newThreadState('t1'), synced: 3, offset: '0000_0010', inflight, blobs: [['sha256-' + '0'.repeat(64), 'image/png']] },
    ])
    expect((await second.loadMemories())[0]).toMatchObject({ memoryId: 'agent', unread: [{ opId: 'op1', space: 'world' }] })

    await second.clear()
    expect(await second.loadThreads()).toEqual([])
    expect(await second.loadMemories()).toEqual([])
    expect((await second.loadDevice(() => 'device-3')).deviceId).toBe('device-3')
  })
})
