/**
 * Catch-up in Chromium: a device that never synced opens its IndexedDB stores, starts sync and
 * reads a 10,000-entry thread (pushed by another device) through the loopback, until `syncNow()`
 * resolves with every entry stored. Three fresh devices (browser contexts, empty storage), each
 * figure printed, the median against the 2 s goal. Then the steady push: the last device appends
 * one message at a time with sync running, until the server acknowledges the push that carries it
 * (seen through createSync's `fetch` option), 50 times on a new short thread and 50 times on the
 * 10,000-entry one, medians against the 50 ms goal; and the whole round (`syncNow()`: read back and
 * the index told). Not a test: nothing fails on a slow figure.
 * Run: node_modules/.bin/tsx packages/sync/bench/catch-up.browser.bench.ts (`npm run bench` does).
 * Writes bench-results/sync-catch-up.json. The Node figure with in-memory stores is sync.bench.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { serveHarness } from '@threadlens/testing/node'
import { chromiumArgs, chromiumExecutable } from '../../../e2e/chromium.ts'
import { startSyncServer } from '../server/sync-server'
import type { SyncHarness } from '../src/testing/harness/harness-page'
import { createDevice, writeLongThread } from '../src/testing/sync-harness'

const entryCount = 10_000
const devices = 3

const server = await startSyncServer({ port: 0 })
const url = `${server.baseUrl}/v1/stream/users/bench`
const writer = createDevice('writer', url)
const threadId = await writeLongThread(writer, entryCount)
await writer.sync.syncNow()
await writer.sync.stop()

const harness = await serveHarness('sync')
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
const runs: number[] = []
const pushes: { short: number[]; long: number[]; shortRound: number[] } = { short: [], long: [], shortRound: [] }
let userAgent = ''
try {
  for (let run = 0; run < devices; run++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    page.on('pageerror', (error) => console.error('[threadlens] bench page error:', error.message))
    await page.goto(harness.url)
    await page.waitForFunction(() => (window as unknown as { syncHarness?: unknown }).syncHarness !== undefined)
    userAgent = await page.evaluate(() => navigator.userAgent)
    const result = await page.evaluate((options) => (window as unknown as { syncHarness: SyncHarness }).syncHarness.catchUp(options), {
      name: `catch-up-${run}`,
      url,
      threadId,
    })
    if (result.entries !== entryCount) throw new Error(`device ${run} caught up ${result.entries} entries, not ${entryCount}`)
    runs.push(result.milliseconds)
    if (run === devices - 1) {
      const short = await page.evaluate(() => (window as unknown as { syncHarness: SyncHarness }).syncHarness.createThread('short'))
      pushes.short = await page.evaluate(([id, count]) => (window as unknown as { syncHarness: SyncHarness }).syncHarness.ackEach(id, count), [
        short,
        50,
      ] as const)
      pushes.long = await page.evaluate(([id, count]) => (window as unknown as { syncHarness: SyncHarness }).syncHarness.ackEach(id, count), [
        threadId,
        50,
      ] as const)
      pushes.shortRound = await page.evaluate(([id, count]) => (window as unknown as { syncHarness: SyncHarness }).syncHarness.pushEach(id, count), [
        short,
        20,
      ] as const)
    }
    await page.evaluate(() => (window as unknown as { syncHarness: SyncHarness }).syncHarness.stop())
    await context.close()
  }
} finally {
  await browser.close()
  await harness.close()
  await server.stop()
}

const sorted = [...runs].sort((a, b) => a - b)
const median = sorted[Math.floor(sorted.length / 2)]!
console.log(`sync catch-up in ${/(Headless)?Chrome\/[\d.]+/.exec(userAgent)?.[0] ?? 'Chromium'}, IndexedDB stores and sync state, loopback server:`)
console.log(
  `  a new device reads a ${entryCount.toLocaleString('en-US')}-entry thread: ${runs.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; median ${median.toFixed(0)} ms (goal < 2000 ms)`,
)

const medianOf = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
console.log(
  `  one appended message to the server's acknowledgement (sync running, no syncNow): median ${medianOf(pushes.short).toFixed(1)} ms on a new thread, ${medianOf(pushes.long).toFixed(1)} ms on the ${entryCount.toLocaleString('en-US')}-entry thread (goal median < 50 ms)`,
)
console.log(
  `  one appended message to syncNow() resolved (acknowledged, read back, index told): median ${medianOf(pushes.shortRound).toFixed(1)} ms on the new thread`,
)

const outputDirectory = fileURLToPath(new URL('../../../bench-results/', import.meta.url))
mkdirSync(outputDirectory, { recursive: true })
const machine = { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, date: new Date().toISOString(), userAgent }
writeFileSync(
  `${outputDirectory}sync-catch-up.json`,
  `${JSON.stringify({ machine, entries: entryCount, milliseconds: runs, median, pushes }, null, 2)}\n`,
)
console.log('wrote bench-results/sync-catch-up.json')
