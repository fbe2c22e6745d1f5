// long: one scenario in phases (online, a 30 s cut, a reload mid-push, five server kills) and the checks after it
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type BrowserContext, type Page, type Route } from '@playwright/test'
import { serveHarness } from '@threadlens/testing/node'
import { spawnSyncServer, type SpawnedSyncServer } from '../packages/sync/server/sync-server'
import type { StoredThread, SyncHarness } from '../packages/sync/src/testing/harness/harness-page'

// @threadlens/sync on two devices in real Chromium: each device is a browser context (its own
// IndexedDB) on the sync harness page (packages/sync/src/testing/harness), with the app's stores and
// `indexedDbSyncState()`, syncing through the local sync server in a child process (file storage in
// a temp dir, loopback) that this spec SIGKILLs and restarts.

test.describe.configure({ mode: 'serial' })

let harnessUrl = ''
let closeHarness: (() => Promise<void>) | undefined
let server: SpawnedSyncServer
let dataDir = ''

test.beforeAll(async () => {
  const harness = await serveHarness('sync')
  harnessUrl = harness.url
  closeHarness = harness.close
  dataDir = await mkdtemp(join(tmpdir(), 'threadlens-sync-e2e-'))
  server = await spawnSyncServer({ port: 0, dataDir })
})

test.afterAll(async () => {
  await server?.stop()
  await closeHarness?.()
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true })
})

type Method = keyof SyncHarness
type Result<M extends Method> = Awaited<ReturnType<SyncHarness[M]>>

/** Calls `window.syncHarness[method](...args)` in the page (arguments and result are JSON). */
function call<M extends Method>(page: Page, method: M, ...args: Parameters<SyncHarness[M]>): Promise<Result<M>> {
  return page.evaluate(
    ([name, values]) => (window as unknown as { syncHarness: Record<string, (...input: unknown[]) => unknown> }).syncHarness[name]!(...values),
    [method, args as unknown[]] as const,
  ) as Promise<Result<M>>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A device: a browser context with its own storage, on the harness page, syncing to `url`. */
interface Device {
  readonly name: string
  readonly database: string
  readonly context: BrowserContext
  page: Page
  /** Every entry id this device appended, with the label its payload carries. */
  readonly appended: Map<string, string>
}

async function openPage(device: Pick<Device, 'database' | 'page'>, url: string): Promise<void> {
  await device.page.waitForFunction(() => (window as unknown as { syncHarness?: unknown }).syncHarness !== undefined)
  await call(device.page, 'start', { name: device.database, url })
}

async function openDevice(browser: Browser, name: string, url: string): Promise<Device> {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error(`[threadlens] device ${name} page error:`, error.message))
  await page.goto(harnessUrl)
  const device: Device = { name, database: `sync-e2e-${name}-${Date.now()}`, context, page, appended: new Map() }
  await openPage(device, url)
  open.push(device)
  return device
}

/**
 * Appends on a device in the background, one message or one tool call with its result (every third
 * append) at a time, until stopped; `pause()` waits for the append under way.
 */
function appender(device: Device, threadId: string, intervalMs: number) {
  let count = 0
  let paused = false
  let stopped = false
  let current: Promise<void> = Promise.resolve()
  const loop = (async () => {
    while (!stopped) {
      if (!paused) {
        const label = `${device.name}-${count}`
        const withTool = count % 3 === 2
        count++
        current = call(device.page, 'append', threadId, label, withTool).then((ids) => {
          for (const id of ids) device.appended.set(id, label)
        })
        await current
      }
      await sleep(intervalMs)
    }
  })()
  return {
    get count() {
      return count
    },
    async pause() {
      paused = true
      await current
    },
    resume() {
      paused = false
    },
    async stop() {
      stopped = true
      await loop
    },
  }
}

/** The devices of the running test, for what a timeout reports. */
const open: Device[] = []

async function describeDevices(): Promise<string> {
  const lines = await Promise.all(
    open.map(async (device) => {
      const status = await call(device.page, 'status').catch((error: unknown) => String(error))
      const states = await call(device.page, 'states').catch(() => [])
      return `${device.name}: ${JSON.stringify(status)}; states ${states.slice(-12).join(' → ')}`
    }),
  )
  return lines.join('\n')
}

/** Waits until `check` holds, polling every 100 ms, for at most `timeoutMs`; a timeout says where each device stands. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${await describeDevices()}`)
    await sleep(100)
  }
}

const state = async (device: Device) => (await call(device.page, 'status')).state

interface Tally {
  lost: number
  duplicated: number
  splitToolPairs: number
}

/** What a device's threads show against every appended id: lost, duplicated, tool calls not directly followed by their result. */
function tally(threads: readonly StoredThread[], devices: readonly Device[]): Tally {
  const entries = threads.flatMap((thread) => thread.entries)
  const present = new Map<string, string>()
  let duplicated = 0
  for (const entry of entries) {
    if (present.has(entry.id)) duplicated++
    present.set(entry.id, entry.payload)
  }
  // A repeat under a new id is a duplicate too: every label is appended once.
  const labels = entries.map((entry) => /"(?:content|q)":"([^"]+)"/.exec(entry.payload)?.[1] ?? entry.id)
  const labelKeys = entries.map((entry, index) => `${entry.kind}:${labels[index]}`)
  duplicated += labelKeys.length - new Set(labelKeys).size
  let lost = 0
  for (const device of devices) {
    for (const [id, label] of device.appended) {
      const payload = present.get(id)
      if (payload === undefined || !payload.includes(label)) lost++
    }
  }
  let splitToolPairs = 0
  for (const thread of threads) {
    thread.entries.forEach((entry, index) => {
      if (entry.kind !== 'tool_call') return
      const next = thread.entries[index + 1]
      if (next?.kind !== 'tool_result' || next.toolCallId !== entry.toolCallId) splitToolPairs++
    })
  }
  return { lost, duplicated, splitToolPairs }
}

test('two devices append through a 30 s cut, a reload mid-push and five server kills: the same threads, nothing lost or doubled', async ({
  browser,
}) => {
  test.setTimeout(300_000)
  const url = `${server.baseUrl}/v1/stream/users/e2e-${Date.now()}`
  const serverPattern = `${server.baseUrl}/**`
  const faults = { offline: 0, reloadMidPush: 0, serverKills: 0, killsWithPushInFlight: 0 }
  const [a, b] = [await openDevice(browser, 'a', url), await openDevice(browser, 'b', url)]

  // A's thread reaches B through the index.
  const shared = await call(a.page, 'createThread', 'shared')
  await until('B to list the shared thread', async () => (await call(b.page, 'threads')).some((thread) => thread.id === shared), 20_000)

  // 1. Online, both append at once (messages, and tool calls appended with their results).
  let appenders = [appender(a, shared, 15), appender(b, shared, 15)]
  await until('20 appends on each device', async () => appenders.every((each) => each.count >= 20), 30_000)

  // 2. The network cut on both devices for 30 s while both keep appending; B also starts a thread.
  const cut = (route: Route) => route.abort('internetdisconnected')
  await Promise.all([a.context.route(serverPattern, cut), b.context.route(serverPattern, cut)])
  faults.offline++
  const cutStarted = Date.now()
  await until('both devices to say offline', async () => (await state(a)) === 'offline' && (await state(b)) === 'offline', 20_000)
  const offlineThread = await call(b.page, 'createThread', 'started offline')
  for (let index = 0; index < 5; index++) {
    for (const id of await call(b.page, 'append', offlineThread, `b-offline-${index}`, index % 2 === 1)) b.appended.set(id, `b-offline-${index}`)
  }
  await sleep(30_000 - (Date.now() - cutStarted))
  await Promise.all([a.context.unroute(serverPattern, cut), b.context.unroute(serverPattern, cut)])
  const cutSeconds = (Date.now() - cutStarted) / 1000
  await until(
    'A to list the thread B started offline',
    async () => (await call(a.page, 'threads')).some((thread) => thread.id === offlineThread),
    60_000,
  )

  // 3. A reloads while its push is in flight: the server stores the push, the answer never reaches the page.
  await appenders[0]!.pause()
  let heldPush: (() => void) | undefined
  const pushHeld = new Promise<void>((resolve) => {
    heldPush = resolve
  })
  let holding = true
  await a.context.route(`${url}/threads/**`, async (route) => {
    if (!holding || route.request().method() !== 'POST') return route.fallback()
    holding = false
    await route.fetch() // the server acts on it: stored
    heldPush!()
    // The page goes away before it hears the answer.
  })
  const beforeReload = `a-before-reload`
  for (const id of await call(a.page, 'append', shared, beforeReload, true)) a.appended.set(id, beforeReload)
  await pushHeld
  expect(await call(a.page, 'inflight')).toContain(shared)
  await a.page.reload()
  faults.reloadMidPush++
  await a.context.unrouteAll({ behavior: 'ignoreErrors' })
  await openPage(a, url)
  appenders[0]!.resume()

  // 4. The server SIGKILLed and restarted five times while both devices append and push.
  for (let kill = 0; kill < 5; kill++) {
    const counts = appenders.map((each) => each.count)
    await until('more appends on both devices', async () => appenders.every((each, index) => each.count >= counts[index]! + 5), 30_000)
    // Kill while a push is written down and unanswered if one comes within 3 s, else anyway.
    let inflight = false
    await until(
      'a push in flight',
      async () => (inflight = (await call(a.page, 'inflight')).length + (await call(b.page, 'inflight')).length > 0),
      3_000,
    ).catch(() => {})
    await server.kill('SIGKILL')
    faults.serverKills++
    if (inflight) faults.killsWithPushInFlight++
    await until('both devices to say offline', async () => (await state(a)) === 'offline' && (await state(b)) === 'offline', 20_000)
    await server.restart()
  }

  // Both stop appending; sync settles by itself (no syncNow).
  await Promise.all(appenders.map((each) => each.stop()))
  appenders = []
  let threadsA: StoredThread[] = []
  let threadsB: StoredThread[] = []
  await until(
    'both devices synced, holding the same threads',
    async () => {
      if ((await state(a)) !== 'synced' || (await state(b)) !== 'synced') return false
      ;[threadsA, threadsB] = await Promise.all([call(a.page, 'read', a.database), call(b.page, 'read', b.database)])
      return JSON.stringify(threadsA) === JSON.stringify(threadsB)
    },
    90_000,
  ).catch((error: unknown) => {
    // Where the two devices' threads part, to read beside the timeout.
    const differences = threadsA.map((thread, index) => {
      const other = threadsB[index]
      const first = thread.entries.findIndex((entry, at) => JSON.stringify(entry) !== JSON.stringify(other?.entries[at]))
      return `${thread.id}: ${thread.entries.length} vs ${other?.entries.length ?? 'none'} entries, first difference at ${first}: ${JSON.stringify(thread.entries[first])} vs ${JSON.stringify(other?.entries[first])}`
    })
    throw new Error(`${String(error)}\n${differences.join('\n')}`)
  })

  expect(threadsA).toEqual(threadsB)
  expect(threadsA.map((thread) => thread.id).sort()).toEqual([shared, offlineThread].sort())
  for (const thread of threadsA) expect(thread.entries.map((entry) => entry.seq)).toEqual(thread.entries.map((_, index) => index))
  const results = [tally(threadsA, [a, b]), tally(threadsB, [a, b])]
  for (const result of results) expect(result).toEqual({ lost: 0, duplicated: 0, splitToolPairs: 0 })
  for (const device of [a, b]) expect(await call(device.page, 'status')).toMatchObject({ state: 'synced', pending: 0, error: null, rejected: 0 })

  const appended = a.appended.size + b.appended.size
  const faultCount = faults.offline + faults.reloadMidPush + faults.serverKills
  const sum = (key: keyof Tally) => results.reduce((total, result) => total + result[key], 0)
  console.log(
    `[threadlens] sync faults: 1 run × ${faultCount} faults (${faults.offline} network cut of ${cutSeconds.toFixed(1)} s, ${faults.reloadMidPush} reload mid-push, ${faults.serverKills} server SIGKILLs, ${faults.killsWithPushInFlight} of them with a push in flight), ` +
      `2 devices, ${appended} entries appended, ${threadsA.reduce((total, thread) => total + thread.entries.length, 0)} held on each: ` +
      `${sum('lost')} lost, ${sum('duplicated')} duplicated, ${sum('splitToolPairs')} tool calls split from their result`,
  )
  await Promise.all([a.context.close(), b.context.close()])
})
