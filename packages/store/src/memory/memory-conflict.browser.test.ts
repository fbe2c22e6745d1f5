import type { Memory } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { browserDatabaseName, openTabs } from '../testing/browser-stores'
import { createMemoryStore } from '../backends/indexeddb/create-memory-store'

describe('two writers on one memory space (real Chromium, workers as tabs)', () => {
  it('same expected rev: exactly one wins, the other gets RevisionConflictError with the current value', async () => {
    const name = browserDatabaseName('memory-race')
    const tabs = await openTabs(name, 2)
    // Both read the same rev, then write against it at the same moment.
    const [seenA, seenB] = await Promise.all(tabs.map((tab) => tab.send<Memory>({ type: 'memory-get', memoryId: 'agent' })))
    expect(seenA?.spaces.world.rev).toBe(seenB?.spaces.world.rev)
    const outcomes = await Promise.allSettled(
      tabs.map((tab, index) =>
        tab.send<Memory>({
          type: 'memory-put',
          memoryId: 'agent',
          key: 'plan',
          value: `plan of tab ${index}`,
          expectedRev: seenA?.spaces.world.rev ?? 0,
        }),
      ),
    )
    const won = outcomes.filter((outcome): outcome is PromiseFulfilledResult<Memory> => outcome.status === 'fulfilled')
    const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    const winner = won[0]?.value as Memory
    expect(lost[0]?.reason).toMatchObject({
      name: 'RevisionConflictError',
      target: { kind: 'memory-space', memoryId: 'agent', space: 'world' },
      expected: 0,
      actual: winner.spaces.world.rev,
      current: { data: { plan: winner.spaces.world.data['plan'] } },
    })
    const memory = createMemoryStore(new ThreadlensDB({ name }))
    expect((await memory.get('agent')).spaces.world.data).toEqual(winner.spaces.world.data)
    tabs.forEach((tab) => tab.close())
  }, 60_000)

  it('without an expected rev, concurrent updates are serialised and none is lost', async () => {
    const name = browserDatabaseName('memory-count')
    const tabs = await openTabs(name, 2)
    await Promise.all(tabs.map((tab) => tab.send({ type: 'memory-increment', memoryId: 'agent', times: 100 })))
    const memory = await createMemoryStore(new ThreadlensDB({ name })).get('agent')
    expect(memory.spaces.world.data['count']).toBe(200)
    expect(memory.rev).toBe(200)
    tabs.forEach((tab) => tab.close())
  }, 60_000)
})
