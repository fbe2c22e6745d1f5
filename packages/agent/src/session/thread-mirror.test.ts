import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it, vi } from 'vitest'
import { ThreadMirror } from './thread-mirror'

const message = (id: string) => ({ id, createdAt: 1, kind: 'message', payload: { role: 'user', content: id } }) as const

describe('ThreadMirror', () => {
  it('follows appends, and after a rebase (a sync moved stored entries) reloads on next use', async () => {
    const { threads } = createMemoryBackedStores()
    const { id } = await threads.create()
    await threads.appendMany(id, [message('a'), message('pending')])
    const mirror = new ThreadMirror(threads, id, () => true)
    const first = await mirror.thread()
    await threads.append(id, message('b'))
    await vi.waitFor(() => expect(first.entries.map((entry) => entry.id)).toEqual(['a', 'pending', 'b']))
    await threads.placeSynced(id, 1, [message('remote')])
    const ids = async () => (await mirror.thread()).entries.map((entry) => entry.id)
    await vi.waitFor(async () => expect(await ids()).toEqual(['a', 'remote', 'pending', 'b']))
    expect((await mirror.thread()).entries).toEqual((await threads.load(id)).entries)
    // It follows again after the reload.
    await threads.append(id, message('c'))
    await vi.waitFor(async () => expect(await ids()).toEqual(['a', 'remote', 'pending', 'b', 'c']))
    mirror.close()
  })
})
