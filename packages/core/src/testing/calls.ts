import type { CallRecord } from '../calls/call-record'
import type { CallRecordOptions } from '../calls/write-call-record'
import { StoredHashes } from '../calls/write-call-record'

type CallFields = Pick<CallRecordOptions, 'counter' | 'policy' | 'projection' | 'basisSeq'> & Partial<CallRecordOptions>

/**
 * `callRecord`'s options for a projection sent with no tools and no memory, to a thread whose call
 * records hold nothing yet, by a test model that stopped without reporting usage; `fields` say
 * what a test cares about (model, stop reason, usage, timing, a shared `stored`).
 */
export function testCallOptions(fields: CallFields): CallRecordOptions {
  return {
    model: 'test-model',
    provider: 'test',
    tools: [],
    memory: undefined,
    stored: new StoredHashes(),
    stopReason: 'stop',
    usage: undefined,
    ...fields,
  }
}

/**
 * The same for a request sent to a server route that runs the model: written by the browser when it
 * sent the request (how it ends is not known yet), then completed by `completeCallRecord`.
 */
export function serverCallOptions(fields: CallFields): CallRecordOptions {
  return testCallOptions({ model: 'server', provider: 'server', stopReason: 'unknown', ...fields })
}

/** A record with only the fields every record has (a test model, hashes as placeholders), and `fields` on top. */
export function bareCallRecord(fields: Partial<CallRecord> = {}): CallRecord {
  return {
    model: 'test-model',
    provider: 'test',
    counter: 'heuristic',
    policyHash: 'p',
    toolsHash: 't',
    basisSeq: 0,
    messagesHash: 'h',
    stopReason: 'stop',
    ...fields,
  }
}
