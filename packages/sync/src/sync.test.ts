import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncError, SyncRejectedError } from './errors'
import { MemorySyncConflictError } from './memory-stream'
import { imagePart } from '@threadlens/store/attachments'
import { startBlobServer } from '../server/blob-server'
import { httpBlobEndpoint } from './attachments'
import type { BlobEndpoint } from './attachments'
import { createDevice, startMemoryServer, toolPair, userMessage } from './testing/sync-harness'
import type { Device } from './testing/sync-harness'

let server: Awaited<ReturnType<typeof startMemoryServer>>
let run = 0
const started: Device[] = []

beforeAll(async () => {
  server = await startMemoryServer()
})
afterAll(async () => {
  await Promise.all(started.map((device) => device.sync.stop()))
  await server.stop()
})

/** Two fresh devices `d0` and `d1` on a stream of their own, with `options` for both. */
function devices(options: Parameters<typeof createDevice>[2] = {}): { url: string; a: Device; b: Device } {
  const url = `${server.url}/v1/stream/case-${run++}`
  const [a, b] = [createDevice('d0', url, options), createDevice('d1', url, options)]
  started.push(a, b)
  return { url, a, b }
}

/** `syncNow` on each device in turn. */
async function syncInTurn(...order: Device[]): Promise<void> {
  for (const device of order) await device.sync.syncNow()
}

/** A thread made on `a` holding one user message, synced to `b`. */
async function sharedThread(a: Device, b: Device, title: string, text: string): Promise<string> {
  const thread = await a.threads.create({ title })
  await a.threads.append(thread.id, userMessage(text))
  await syncInTurn(a, b)
  return thread.id
}

async function texts(device: Device, threadId: string): Promise<string[]> {
  return (await device.threads.load(threadId)).entries.map((entry) => (entry.kind === 'message' ? String(entry.payload.content) : entry.kind))
}

async function post(url: string, messages: unknown): Promise<void> {
  await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' } })
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof messages === 'string' ? messages : JSON.stringify(messages),
  })
  expect(response.ok).toBe(true)
}

describe('two devices', () => {
  it('gives a thread made on one device to the other, with its title', async () => {
    const { a, b } = devices()
    const threadId = await sharedThread(a, b, 'Trip', 'hello')
    expect((await b.threads.get(threadId))?.title).toBe('Trip')
    expect(await texts(b, threadId)).toEqual(['hello'])
    expect(a.sync.status.getSnapshot()).toMatchObject({ state: 'synced', pending: 0 })
  })

  it('puts concurrent offline appends in the stream order on both, the later pusher rebased', async () => {
    const { a, b } = devices()
    const threadId = await sharedThread(a, b, 't', 'start')
    a.faults.down = b.faults.down = 1_000
    await a.threads.append(threadId, userMessage('a offline'))
    await b.threads.appendMany(threadId, [userMessage('b offline'), ...toolPair('b-call', 'q')])
    await expect(b.sync.syncNow()).rejects.toMatchObject({ code: 'network' })
    expect(b.sync.status.getSnapshot()).toMatchObject({ state: 'offline', pending: 3 })
    a.faults.down = b.faults.down = 0
    await syncInTurn(a, b, a)
    const expected = ['start', 'a offline', 'b offline', 'tool_call', 'tool_result']
    expect(await texts(a, threadId)).toEqual(expected)
    expect(await texts(b, threadId)).toEqual(expected)
  })

  it('keeps the unsynced entries of a thread deleted elsewhere in a recovered thread', async () => {
    const { a, b } = devices()
    const threadId = await sharedThread(a, b, 'Doomed', 'shared')
    b.faults.down = 1_000
    await b.threads.append(threadId, userMessage('written offline on b'))
    await a.threads.delete(threadId)
    await a.sync.syncNow()
    b.faults.down = 0
    await b.sync.syncNow()
    expect(await b.threads.get(threadId)).toBeUndefined()
    const recovered = b.sync.status.getSnapshot().recovered
    expect(recovered).toHaveLength(1)
    expect(recovered[0]!.from).toBe(threadId)
    expect((await b.threads.get(recovered[0]!.to))?.title).toBe('Doomed (recovered)')
    expect(await texts(b, recovered[0]!.to)).toEqual(['shared', 'written offline on b'])
    // The recovered thread syncs like any other: device a gets it too.
    await syncInTurn(b, a)
    expect(await texts(a, recovered[0]!.to)).toEqual(['shared', 'written offline on b'])
  })
})

describe('live', () => {
  it("brings one device's appends to the other without a syncNow: pushed at once, followed by long-poll", async () => {
    const { a, b } = devices({ live: true })
    const thread = await a.threads.create({ title: 'live' })
    await a.threads.appendMany(thread.id, [userMessage('one'), ...toolPair('d0-live-call', 'q'), userMessage('two')])
    await expect
      .poll(async () => ((await b.threads.get(thread.id)) === undefined ? [] : texts(b, thread.id)), { timeout: 10_000, interval: 50 })
      .toEqual(['one', 'tool_call', 'tool_result', 'two'])
    await b.threads.append(thread.id, userMessage('reply from b'))
    await expect
      .poll(() => texts(a, thread.id), { timeout: 10_000, interval: 50 })
      .toEqual(['one', 'tool_call', 'tool_result', 'two', 'reply from b'])
    await expect.poll(() => a.sync.status.getSnapshot().state, { timeout: 10_000, interval: 50 }).toBe('synced')
  })

  it('says offline while the server does not answer and pushes by itself once it does', async () => {
    const { a, b } = devices({ live: true })
    const thread = await a.threads.create({ title: 'flaky' })
    await expect.poll(() => a.sync.status.getSnapshot().state, { timeout: 10_000, interval: 20 }).toBe('synced')
    a.faults.down = 4
    await a.threads.append(thread.id, userMessage('sent while down'))
    await expect.poll(() => a.sync.status.getSnapshot().state, { timeout: 10_000, interval: 20 }).toBe('offline')
    expect(a.sync.status.getSnapshot().error).toMatchObject({ code: 'network' })
    await expect
      .poll(async () => ((await b.threads.get(thread.id)) === undefined ? [] : texts(b, thread.id)), { timeout: 15_000, interval: 50 })
      .toEqual(['sent while down'])
    await expect
      .poll(() => a.sync.status.getSnapshot(), { timeout: 10_000, interval: 50 })
      .toMatchObject({ state: 'synced', pending: 0, error: null })
  })
})

describe('attachments', () => {
  const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4])

  /** A thread made on `device` holding a user message with the PNG attached. */
  async function photoThread(device: Device) {
    const thread = await device.threads.create({ title: 'photo' })
    const info = await device.attachments.put(thread.id, new Blob([png], { type: 'image/png' }))
    await device.threads.append(thread.id, {
      kind: 'message',
      payload: { role: 'user', content: 'look', parts: [{ type: 'text', text: 'look' }, imagePart(info)] },
    })
    return { thread, info }
  }

  it('moves the bytes through the blob endpoint, never the stream, checked against their hash', async () => {
    const blobServer = await startBlobServer()
    try {
      const { url, a, b } = devices({ blobs: httpBlobEndpoint({ url: blobServer.baseUrl }) })
      const { thread, info } = await photoThread(a)
      await a.sync.syncNow()
      expect(blobServer.size()).toBe(1)
      const stream = await (await fetch(`${url}/threads/${thread.id}?offset=-1`)).text()
      expect(stream).toContain(info.id)
      expect(stream.length).toBeLessThan(2_000)
      await b.sync.syncNow()
      const copy = await b.attachments.get(info.id)
      expect(new Uint8Array(await copy!.arrayBuffer())).toEqual(png)
      expect((await b.attachments.listForThread(thread.id)).map((item) => item.id)).toEqual([info.id])
    } finally {
      await blobServer.stop()
    }
  })

  it('says which blob the endpoint refused, typed auth or http by the status', async () => {
    const refusing = httpBlobEndpoint({
      url: 'http://blobs.test/',
      fetch: async (_url, init) => new Response(null, { status: init?.method === 'PUT' ? 403 : 500 }),
    })
    await expect(refusing.put('b1', new Blob([png]))).rejects.toMatchObject({
      code: 'auth',
      status: 403,
      url: 'http://blobs.test/b1',
      message: 'The blob endpoint refused to store b1: HTTP 403',
    })
    await expect(refusing.get('b1')).rejects.toMatchObject({ code: 'http', status: 500, message: 'The blob endpoint refused to give b1: HTTP 500' })
  })

  it('keeps no bytes that do not hash to their id, and tries again later', async () => {
    const url = `${server.url}/v1/stream/case-${run++}`
    const held = new Map<string, Blob>()
    const honest: BlobEndpoint = { put: async (id, blob) => void held.set(id, blob), get: async (id) => held.get(id) }
    let lie = true
    const lying: BlobEndpoint = {
      put: async () => {},
      get: async (id) => (lie ? new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }) : held.get(id)),
    }
    const a = createDevice('d0', url, { blobs: honest })
    const b = createDevice('d1', url, { blobs: lying })
    started.push(a, b)
    const { thread, info } = await photoThread(a)
    await syncInTurn(a, b)
    expect((await b.threads.load(thread.id)).entries).toHaveLength(1)
    expect(await b.attachments.get(info.id)).toBeUndefined()
    expect((await b.state.loadThreads()).find((state) => state.threadId === thread.id)?.blobs).toEqual([[info.id, 'image/png']])
    lie = false
    await b.sync.syncNow()
    expect(new Uint8Array(await (await b.attachments.get(info.id))!.arrayBuffer())).toEqual(png)
    expect((await b.state.loadThreads()).find((state) => state.threadId === thread.id)?.blobs).toEqual([])
  })
})

describe('memory', () => {
  it('gives a space written on one device to the other', async () => {
    const { a, b } = devices()
    await a.memory.world.put('agent', 'city', 'Oslo')
    await a.memory.tasks.add('agent', 'book a table', { id: 'task-1' })
    await syncInTurn(a, b)
    expect(await b.memory.world.get('agent', 'city')).toBe('Oslo')
    expect((await b.memory.tasks.open('agent')).map((task) => task.text)).toEqual(['book a table'])
    expect(a.sync.status.getSnapshot().conflicts).toEqual([])
  })

  it('keeps the first of two offline writes to a space everywhere and tells the other device it lost', async () => {
    const { a, b } = devices()
    await a.memory.world.put('agent', 'plan', 'start')
    await syncInTurn(a, b)
    a.faults.down = b.faults.down = 1_000
    await a.memory.world.put('agent', 'plan', 'from a')
    await b.memory.world.put('agent', 'plan', 'from b')
    a.faults.down = b.faults.down = 0
    await syncInTurn(a, b, a)
    expect(await a.memory.world.get('agent', 'plan')).toBe('from a')
    expect(await b.memory.world.get('agent', 'plan')).toBe('from a')
    expect(a.sync.status.getSnapshot().conflicts).toEqual([])
    const [conflict, ...more] = b.sync.status.getSnapshot().conflicts
    expect(more).toEqual([])
    expect(MemorySyncConflictError.isInstance(conflict)).toBe(true)
    expect(conflict!.target).toEqual({ kind: 'memory-space', memoryId: 'agent', space: 'world' })
    expect(conflict!.lost).toEqual({ plan: 'from b' })
    expect(conflict!.current).toEqual({ plan: 'from a' })
  })
})

describe('a hostile stream', () => {
  it('refuses each bad message with a typed error and keeps the good ones, the thread intact', async () => {
    const { url, a, b } = devices()
    const thread = await a.threads.create({ title: 'target' })
    await a.threads.append(thread.id, userMessage('before'))
    await a.sync.syncNow()
    const rejected: SyncRejectedError[] = []
    const reader = createDevice('d9', url, { onRejected: (error) => rejected.push(error) })
    started.push(reader)
    const good = (id: string, text: string) => ({
      v: 1,
      type: 'entries',
      device: 'x',
      entries: [{ id, kind: 'message', payload: { role: 'user', content: text }, createdAt: 1 }],
    })
    await post(`${url}/threads/${thread.id}`, [
      'not an object',
      { v: 1, type: 'entries', device: 'x', entries: [{ id: 'bad role', kind: 'message', payload: { role: 'robot', content: 'x' }, createdAt: 1 }] },
      {
        v: 1,
        type: 'entries',
        device: 'x',
        entries: [{ id: 'role-ok-but-wrong', kind: 'message', payload: { role: 'robot', content: 'x' }, createdAt: 1 }],
      },
      good('good-1', 'first good'),
      {
        v: 1,
        type: 'entries',
        device: 'x',
        entries: [{ id: 'huge', kind: 'message', payload: { role: 'user', content: 'x'.repeat(10 * 1024 * 1024) }, createdAt: 1 }],
      },
      good('good-2', 'second good'),
    ])
    await post(
      `${url}/threads/${thread.id}`,
      '[{"v":1,"type":"entries","device":"x","entries":[{"id":"proto","kind":"message","payload":{"role":"user","content":"x","__proto__":{"polluted":true}},"createdAt":1}]}]',
    )
    await reader.sync.syncNow()
    expect(await texts(reader, thread.id)).toEqual(['before', 'first good', 'second good'])
    expect(rejected.length).toBe(5)
    for (const error of rejected) {
      expect(SyncRejectedError.isInstance(error)).toBe(true)
      expect(error.threadId).toBe(thread.id)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    // The writer reads the same stream and agrees.
    await b.sync.syncNow()
    expect(await texts(b, thread.id)).toEqual(['before', 'first good', 'second good'])
  })

  it('stops a thread whose stream holds a newer format, with a typed error, and syncs the others', async () => {
    const { url, a, b } = devices()
    const newer = await a.threads.create({ title: 'newer' })
    const plain = await a.threads.create({ title: 'plain' })
    await a.threads.append(newer.id, userMessage('mine'))
    await a.threads.append(plain.id, userMessage('fine'))
    await a.sync.syncNow()
    await post(`${url}/threads/${newer.id}`, [{ v: 2, type: 'entries', device: 'future', entries: [] }])
    await expect(b.sync.syncNow()).resolves.toBeUndefined()
    expect(await texts(b, plain.id)).toEqual(['fine'])
    expect(await texts(b, newer.id)).toEqual(['mine'])
    const status = b.sync.status.getSnapshot()
    expect(status.state).toBe('error')
    expect(SyncError.isInstance(status.error) && status.error.code).toBe('schema-version')
  })

  it('refuses a thread stream that is not JSON, with a typed error', async () => {
    const { url, a } = devices()
    const thread = await a.threads.create({ title: 'x' })
    await fetch(`${url}/threads/${thread.id}`, { method: 'PUT', headers: { 'Content-Type': 'text/plain' } })
    await a.threads.append(thread.id, userMessage('local only'))
    await a.sync.syncNow()
    const status = a.sync.status.getSnapshot()
    expect(status.state).toBe('error')
    expect(SyncError.isInstance(status.error) && status.error.code).toBe('content-type')
    expect(await texts(a, thread.id)).toEqual(['local only'])
  })
})
