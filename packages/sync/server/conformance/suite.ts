// The Durable Streams conformance suite, run by a child vitest (./vitest.config.ts) that
// ../../src/server-conformance.test.ts starts against its own server: the base URL and the
// server's long-poll timeout come from the environment.
import { runConformanceTests } from '@durable-streams/server-conformance-tests'

const baseUrl = process.env['SYNC_CONFORMANCE_URL']
const longPollTimeoutMs = Number(process.env['SYNC_CONFORMANCE_LONG_POLL_MS'] ?? '20000')
if (baseUrl === undefined || baseUrl === '') {
  throw new Error('SYNC_CONFORMANCE_URL is not set: this suite runs from packages/sync/src/server-conformance.test.ts')
}

runConformanceTests({ baseUrl, longPollTimeoutMs })
