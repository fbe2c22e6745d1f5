// How the engine schedules its steps, in two cases found in Chromium by e2e/sync-devices.spec.ts:
// - a thread appended to without pause (an agent streaming tool calls, a long session pasted in)
//   must not hold up the rest: another thread's record stayed unpushed for over a minute, and the
//   status said `offline` while online;
// - a change notice read from the index, then a reload before the thread's stream was read: the
//   index's offset is already past the notice, yet the next start must read that stream (a device
//   held the other's new thread with none of its entries while both said `synced`).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDevice, startMemoryServer, userMessage } from './testing/sync-harness'

let server: Awaited<ReturnType<typeof startMemoryServer>>

beforeAll(async () => {
  server = await startMemoryServer()
})
afterAll(async () => {
  await server.stop()
})

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function serverHas(url: string, text: string): Promise<boolean> {
  const response = await fetch(`${url}?offset=-1`)
  return response.ok && (await response.text()).includes(text)
}

it('pushes another thread, and says it is back online, while one thread is appended to without pause', async () => {
  const url = `${server.url}/v1/stream/busy`
  const device = createDevice('busy', url)
  const busy = await device.threads.create({ title: 'busy' })
  await device.sync.syncNow()
  let appending = true
  let appended = 0
  const appender = (async () => {
    while (appending) {
      await device.threads.append(busy.id, userMessage(`busy ${appended++}`))
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  })()
  try {
    await until('the busy thread to be pushed', () => serverHas(`${url}/threads/${busy.id}`, 'busy 5'), 5_000)
    const quiet = await device.threads.create({ title: 'quiet' })
    await device.threads.append(quiet.id, userMessage('quiet hello'))
    // Its turn comes after one round of the busy thread's (~25 ms here); before, it waited ~2 s, for
    // the busy thread's loop to run out of rounds.
    await until("the quiet thread's record in the index", () => serverHas(`${url}/index`, quiet.id), 1_000)
    await until("the quiet thread's entry", () => serverHas(`${url}/threads/${quiet.id}`, 'quiet hello'), 1_000)

    // The network cut for a few requests, then back: the status leaves `offline` while the appends go on.
    const states: string[] = []
    const unsubscribe = device.sync.status.subscribe(() => states.push(device.sync.status.getSnapshot().state))
    device.faults.down = 3
    await until('offline', () => states.includes('offline'), 5_000)
    await until('back from offline', () => device.faults.down === 0 && device.sync.status.getSnapshot().state !== 'offline', 5_000)
    unsubscribe()
  } finally {
    appending = false
    await appender
  }
  await device.sync.syncNow()
  expect(device.sync.status.getSnapshot()).toMatchObject({ state: 'synced', pending: 0 })
  expect((await device.threads.load(busy.id)).entries).toHaveLength(appended)
  await device.sync.stop()
})

it("reads a thread after a restart when the index's notice was read before it and the stream was not", async () => {
  const url = `${server.url}/v1/stream/notice-restart`
  const writer = createDevice('writer', url)
  const thread = await writer.threads.create({ title: 'from the writer' })
  await writer.threads.appendMany(thread.id, [userMessage('one'), userMessage('two')])
  await writer.sync.syncNow()
  await writer.sync.stop()

  // The reader's reads of thread streams hang (until the engine is dropped); the index answers.
  let hang = true
  const stalled: AbortSignal[] = []
  const reader = createDevice('reader', url, {
    fetch: (input, init) => {
      if (hang && String(input).includes('/threads/')) {
        if (init?.signal) stalled.push(init.signal)
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
      }
      return fetch(input, init)
    },
  })
  await until('the record from the index', async () => (await reader.threads.get(thread.id)) !== undefined, 5_000)
  await until("the thread's read under way", () => stalled.length > 0, 5_000)
  expect((await reader.threads.load(thread.id)).entries).toHaveLength(0)

  // A reload: the engine goes, its queue with it; the next one starts from what was saved.
  hang = false
  await reader.crash()
  await until('the entries after the restart', async () => (await reader.threads.load(thread.id)).entries.length === 2, 5_000)
  await until('synced', () => reader.sync.status.getSnapshot().state === 'synced', 5_000)
  expect((await reader.threads.load(thread.id)).entries.map((entry) => entry.payload)).toEqual([
    { role: 'user', content: 'one' },
    { role: 'user', content: 'two' },
  ])
  await reader.sync.stop()
})
