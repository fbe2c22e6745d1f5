// The development sync server (file-backed, as the other sync tests use it) against the Durable
// Streams conformance suite (@durable-streams/server-conformance-tests), run in a child vitest.
// Every test passes except the known failures below, and each known failure still fails: a new
// failure, or a fix upstream, fails this test until the list says so.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runConformanceSuite, type ConformanceResult } from '../server/conformance/run-suite'
import { startSyncServer, type SyncServer } from '../server/sync-server'

interface KnownFailure {
  /** Why it fails. */
  readonly reason: string
  /** The assertion it fails on: failing any other way is a new failure. */
  readonly failsWith: RegExp
}

const ttlNotRenewed = /expected 404 to be 200/
const sseDataNotPaired = /expected 'data' to be 'control'/

/**
 * Conformance tests @durable-streams/server 0.3.7 fails against suite 0.3.6, by full name, with
 * why (read from the suite's assertions and the server's source).
 */
const knownFailures: ReadonlyMap<string, KnownFailure> = new Map([
  [
    'TTL Expiration Behavior should extend TTL on GET ?offset=now (sliding window)',
    {
      reason:
        'server.ts answers a catch-up read at offset=now before it calls store.touchAccess, so the read does not renew the TTL and the stream is gone (404) when the suite reads it again',
      failsWith: ttlNotRenewed,
    },
  ],
  [
    'TTL Expiration Behavior should extend TTL on close-only POST (sliding window)',
    {
      reason:
        'handleAppend returns from its close-only branch (empty body, Stream-Closed: true) before store.touchAccess, so closing does not renew the TTL (404 afterwards)',
      failsWith: ttlNotRenewed,
    },
  ],
  [
    'TTL Expiration Behavior should extend TTL on producer close-only POST (sliding window)',
    {
      reason: 'the same close-only branch with Producer-* headers: closeStreamWithProducer, then no store.touchAccess (404 afterwards)',
      failsWith: ttlNotRenewed,
    },
  ],
  [
    'SSE Mode JSON SSE catch-up pairs every data event with a control event',
    {
      reason:
        'handleSSE writes one `event: data` per stored message and a single `event: control` after the batch; the suite wants a control event after every data event (protocol 5.8), so a two-append catch-up has two data events in a row',
      failsWith: sseDataNotPaired,
    },
  ],
  [
    'SSE Mode base64 SSE catch-up pairs every data event with a control event',
    { reason: 'the same SSE batching for a binary (base64-encoded) stream', failsWith: sseDataNotPaired },
  ],
])

// The server answers an idle long-poll after this long; the suite's long-poll tests wait for it.
// Short, so those tests take seconds, not the default 30 s each.
const longPollTimeoutMs = 500

describe('sync server conformance', () => {
  let server: SyncServer | undefined
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'threadlens-sync-conformance-'))
    server = await startSyncServer({ port: 0, dataDir, longPollTimeoutMs })
  })
  afterAll(async () => {
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('passes the Durable Streams conformance suite but for the known failures, each of which still fails', async () => {
    if (server === undefined) throw new Error('the server did not start')
    const started = performance.now()
    // The server's per-request [info] lines (slow appends under the suite's load) would bury the
    // tally; its warnings and errors still show.
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined)
    let results: ConformanceResult[]
    try {
      results = await runConformanceSuite({ baseUrl: server.baseUrl, longPollTimeoutMs, timeoutMs: 100_000 })
    } finally {
      info.mockRestore()
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)

    const passed = results.filter((result) => result.status === 'passed')
    const failed = results.filter((result) => result.status === 'failed')
    const skipped = results.filter((result) => result.status === 'skipped')
    const isKnown = (result: ConformanceResult): boolean => knownFailures.get(result.name)?.failsWith.test(result.failure ?? '') === true
    const known = failed.filter(isKnown)
    const unexpected = failed.filter((result) => !isKnown(result))
    // The suite runs its "Reserved subscription APIs" tests only when asked (`subscriptions: true`):
    // webhook subscriptions to stream metadata, which sync does not use.
    console.info(
      `conformance (${seconds} s): ${passed.length} passed, ${unexpected.length} failed, ${known.length} known failures, ${skipped.length} not run by the suite`,
    )
    for (const result of unexpected) console.info(`  failed: ${result.name}\n    ${result.failure?.split('\n')[0] ?? ''}`)
    for (const result of known) console.info(`  known: ${result.name}: ${knownFailures.get(result.name)?.reason ?? ''}`)

    expect(results.length).toBeGreaterThan(300) // the whole suite ran, not a fraction of it
    // A listed failure that now passes, fails another way, or no longer exists must leave the list.
    const knownNames = new Set(known.map((result) => result.name))
    expect({
      unexpectedFailures: unexpected.map((result) => result.name),
      listedButNotFailingAsListed: [...knownFailures.keys()].filter((name) => !knownNames.has(name)),
    }).toEqual({ unexpectedFailures: [], listedButNotFailingAsListed: [] })
  })
})
