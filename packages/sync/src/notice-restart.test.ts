// A change notice read from the index, then a reload or crash before the thread's stream is read:
// the index's offset is already past the notice, so the next start must still read that stream.
// Found in Chromium by e2e/sync-devices.spec.ts: a device reloaded while its push hung held the
// other device's new thread with none of its entries, and both said `synced`.
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
