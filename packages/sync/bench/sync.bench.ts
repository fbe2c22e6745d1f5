/**
 * Sync figures on the loopback, against the reference server in this process (in memory):
 * - catch-up: a device that never synced reads a 10,000-entry thread (pushed by another device);
 * - push: one appended entry to acknowledged and read back (`syncNow`), median and p95 of 100.
 * Run: node_modules/.bin/tsx packages/sync/bench/sync.bench.ts
 * The stores are the in-memory backend: the Chromium figure (IndexedDB) is catch-up.browser.bench.ts.
 */
import { performance } from 'node:perf_hooks'
import { createDevice, startMemoryServer, userMessage, writeLongThread } from '../src/testing/sync-harness'

const entryCount = 10_000
const server = await startMemoryServer()
const url = `${server.url}/v1/stream/bench`
const writer = createDevice('writer', url)
const threadId = await writeLongThread(writer, entryCount)
let began = performance.now()
await writer.sync.syncNow()
const firstPush = performance.now() - began

const reader = createDevice('reader', url)
began = performance.now()
await reader.sync.syncNow()
const catchUp = performance.now() - began
const caught = (await reader.threads.load(threadId)).entries.length
if (caught !== entryCount) throw new Error(`catch-up read ${caught} entries, not ${entryCount}`)

const pushes: number[] = []
for (let index = 0; index < 100; index++) {
  await writer.threads.append(threadId, userMessage(`steady ${index}`))
  began = performance.now()
  await writer.sync.syncNow()
  pushes.push(performance.now() - began)
}
pushes.sort((a, b) => a - b)
const ms = (value: number) => `${value.toFixed(1)} ms`
console.log(`first push of ${entryCount} entries: ${ms(firstPush)}`)
console.log(`catch-up of ${entryCount} entries by a new device: ${ms(catchUp)} (goal < 2000 ms)`)
console.log(`one appended entry to acknowledged and read back: median ${ms(pushes[50]!)}, p95 ${ms(pushes[95]!)} (goal median < 50 ms)`)
await Promise.all([writer.sync.stop(), reader.sync.stop()])
await server.stop()
