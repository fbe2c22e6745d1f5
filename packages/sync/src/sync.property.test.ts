import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Entry } from '@threadlens/core'
import { createDevice, startMemoryServer, toolPair, userMessage } from './testing/sync-harness'
import type { Device } from './testing/sync-harness'

/**
 * Random interleavings of appends on several devices, pushes and pulls, crashes, a cut network and
 * answers lost after the server acted. Afterwards every device holds the same threads, each with
 * the same entries in the same order: nothing lost, nothing twice, no call split from its result
 * by another device's entries, and nothing a device once saw synced was moved.
 */

type Action =
  | { readonly type: 'create'; readonly device: number }
  | { readonly type: 'message' | 'pair' | 'open-call' | 'close-call' | 'rename'; readonly device: number; readonly thread: number }
  | { readonly type: 'sync' | 'crash'; readonly device: number }
  | { readonly type: 'remember'; readonly device: number; readonly key: 'plan' | 'city' }
  | { readonly type: 'down' | 'lost'; readonly device: number; readonly count: number }

const deviceIndex = fc.nat({ max: 2 })
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ type: fc.constant('create' as const), device: deviceIndex }) },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constantFrom('message' as const, 'pair' as const, 'open-call' as const, 'close-call' as const, 'rename' as const),
      device: deviceIndex,
      thread: fc.nat({ max: 5 }),
    }),
  },
  { weight: 5, arbitrary: fc.record({ type: fc.constant('sync' as const), device: deviceIndex }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('crash' as const), device: deviceIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('remember' as const), device: deviceIndex, key: fc.constantFrom('plan' as const, 'city' as const) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constantFrom('down' as const, 'lost' as const), device: deviceIndex, count: fc.integer({ min: 1, max: 4 }) }),
  },
)

let server: Awaited<ReturnType<typeof startMemoryServer>>
beforeAll(async () => {
  server = await startMemoryServer()
})
afterAll(async () => {
  await server.stop()
})

interface World {
  readonly devices: Device[]
  /** Every entry id appended anywhere, by thread. */
  readonly appended: Map<string, Set<string>>
  /** Calls appended without their result yet: device → thread → call ids. */
  readonly open: Map<Device, Map<string, string[]>>
  /** Prefixes a device saw synced: thread → id lists. */
  readonly seenSynced: Map<string, string[][]>
  calls: number
}

async function localThreadIds(device: Device): Promise<string[]> {
  return (await device.threads.list()).map((record) => record.id).sort()
}

function track(world: World, threadId: string, entries: readonly Entry[]): void {
  const ids = world.appended.get(threadId) ?? new Set<string>()
  for (const entry of entries) ids.add(entry.id)
  world.appended.set(threadId, ids)
}

async function noteSynced(world: World, device: Device): Promise<void> {
  for (const state of await device.state.loadThreads()) {
    if (state.deleted || state.synced === 0) continue
    const thread = await device.threads.load(state.threadId).catch(() => undefined)
    if (thread === undefined) continue
    const prefixes = world.seenSynced.get(state.threadId) ?? []
    prefixes.push(thread.entries.slice(0, state.synced).map((entry) => entry.id))
    world.seenSynced.set(state.threadId, prefixes)
  }
}

// long: one switch over the actions a device can take
async function run(world: World, action: Action): Promise<void> {
  const device = world.devices[action.device % world.devices.length]!
  const ids = await localThreadIds(device)
  const threadId = 'thread' in action && ids.length > 0 ? ids[action.thread % ids.length]! : undefined
  const open = world.open.get(device) ?? new Map<string, string[]>()
  world.open.set(device, open)
  switch (action.type) {
    case 'create':
      await device.threads.create({ title: `${device.name} thread` })
      return
    case 'message':
      if (threadId !== undefined) track(world, threadId, [await device.threads.append(threadId, userMessage(`from ${device.name}`))])
      return
    case 'pair':
      if (threadId !== undefined)
        track(world, threadId, await device.threads.appendMany(threadId, toolPair(`${device.name}-call-${world.calls++}`, 'x')))
      return
    case 'open-call': {
      if (threadId === undefined) return
      const callId = `${device.name}-call-${world.calls++}`
      track(world, threadId, [await device.threads.append(threadId, toolPair(callId, 'open')[0]!)])
      open.set(threadId, [...(open.get(threadId) ?? []), callId])
      return
    }
    case 'close-call': {
      const callId = threadId === undefined ? undefined : open.get(threadId)?.pop()
      if (threadId !== undefined && callId !== undefined)
        track(world, threadId, [await device.threads.append(threadId, toolPair(callId, 'open')[1]!)])
      return
    }
    case 'rename':
      if (threadId !== undefined) await device.threads.rename(threadId, `renamed by ${device.name} ${world.calls++}`)
      return
    case 'sync':
      try {
        await device.sync.syncNow()
        await noteSynced(world, device)
      } catch {
        // The network was down or an answer was lost: the next sync picks up where this one stopped.
      }
      return
    case 'crash':
      await device.crash()
      return
    case 'remember':
      await device.memory.world.put('agent', action.key, `${device.name} ${world.calls++}`)
      return
    case 'down':
      device.faults.down += action.count
      return
    case 'lost':
      device.faults.lost += action.count
      return
  }
}

/** Closes every open call (with a thread still here), then syncs every device until all are still. */
async function settle(world: World): Promise<void> {
  for (const [device, open] of world.open) {
    for (const [threadId, callIds] of open) {
      if ((await device.threads.get(threadId)) === undefined) continue
      for (const callId of callIds.splice(0)) track(world, threadId, [await device.threads.append(threadId, toolPair(callId, 'open')[1]!)])
    }
  }
  for (const device of world.devices) {
    device.faults.down = 0
    device.faults.lost = 0
  }
  for (let round = 0; round < 3; round++) for (const device of world.devices) await device.sync.syncNow()
}

async function check(world: World): Promise<void> {
  // Memory: one agreed world on every device.
  const memories = await Promise.all(world.devices.map(async (device) => (await device.memory.get('agent')).spaces.world.data))
  for (const memory of memories) expect(memory).toEqual(memories[0])
  const [first, ...others] = world.devices
  const ids = await localThreadIds(first!)
  for (const other of others) expect(await localThreadIds(other)).toEqual(ids)
  for (const threadId of ids) {
    const threads = await Promise.all(world.devices.map((device) => device.threads.load(threadId)))
    const order = threads[0]!.entries.map((entry) => entry.id)
    for (const thread of threads)
      expect(thread.entries.map((entry) => ({ id: entry.id, seq: entry.seq, payload: entry.payload }))).toEqual(
        threads[0]!.entries.map((entry) => ({ id: entry.id, seq: entry.seq, payload: entry.payload })),
      )
    // Nothing twice, nothing lost.
    expect(new Set(order).size).toBe(order.length)
    for (const id of world.appended.get(threadId) ?? []) expect(order).toContain(id)
    // A call and its result: the result after it, and nothing of another device between them.
    const entries = threads[0]!.entries
    for (const [position, entry] of entries.entries()) {
      if (entry.kind !== 'tool_call') continue
      const result = entries.findIndex((other) => other.kind === 'tool_result' && other.refs.toolCallId === entry.refs.toolCallId)
      expect(result).toBeGreaterThan(position)
      const author = entry.id.split('-')[0]
      for (const between of entries.slice(position, result)) expect(between.id.split('-')[0]).toBe(author)
    }
    // What a device once saw synced never moved.
    for (const prefix of world.seenSynced.get(threadId) ?? []) expect(order.slice(0, prefix.length)).toEqual(prefix)
    const titles = await Promise.all(world.devices.map(async (device) => (await device.threads.get(threadId))!.title))
    expect(new Set(titles).size).toBe(1)
  }
}

let runNumber = 0
describe('sync over random interleavings', () => {
  it('leaves every device with the same threads, nothing lost or doubled, calls whole, synced entries unmoved', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 3 }), fc.array(actionArbitrary, { minLength: 5, maxLength: 40 }), async (deviceCount, actions) => {
        const url = `${server.url}/v1/stream/run-${runNumber++}`
        const devices = Array.from({ length: deviceCount }, (_, index) => createDevice(`d${index}`, url))
        const world: World = { devices, appended: new Map(), open: new Map(), seenSynced: new Map(), calls: 0 }
        try {
          for (const action of actions) await run(world, action)
          await settle(world)
          await check(world)
        } finally {
          await Promise.all(devices.map((device) => device.sync.stop()))
        }
      }),
      { numRuns: 100 },
    )
  }, 120_000)
})
