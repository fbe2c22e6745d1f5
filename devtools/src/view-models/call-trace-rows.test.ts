import { createThread, type CallRecord, type Entry } from '@threadlens/core'
import type { CallAttempt, ThreadCall } from '@threadlens/core/calls'
import { bareCallRecord } from '@threadlens/testing'
import { describe, expect, it } from 'vitest'
import { countDifference, rowNeighbours, stepLines, traceLabel, traceRows, type TraceRow } from './call-trace-rows'

const record = (startedAt: number, extra: Partial<CallRecord> = {}): CallRecord => bareCallRecord({ startedAt, ...extra })
const call = (callId: string, stored: CallRecord | undefined): ThreadCall => ({
  callId,
  ordinal: 0,
  requestId: undefined,
  iteration: undefined,
  parentCallId: undefined,
  firstSeq: 0,
  lastSeq: 0,
  seqs: [0],
  toolCallCount: 0,
  record: stored === undefined ? undefined : { callId, stored },
})
const attempt = (callId: string, number: number, startedAt: number, status: CallAttempt['status'] = 'retried'): CallAttempt => ({
  id: `${callId}#${number}`,
  threadId: 't',
  callId,
  attempt: number,
  status,
  record: record(startedAt, { stopReason: 'error', attempts: number }),
})

describe('the Calls tab trace', () => {
  it('puts each call after its own attempts, and calls that never answered where they started', () => {
    const rows = traceRows(
      [call('c1', record(100, { attempts: 2 })), call('c3', record(300))],
      [attempt('c1', 1, 100), attempt('c2', 1, 200, 'failed'), attempt('c9', 1, 900, 'failed')],
    )
    expect(rows.map((row) => row.key)).toEqual(['a:c1#1', 'c:c1', 'a:c2#1', 'c:c3', 'a:c9#1'])
  })

  it('shows a reply cut short by an error once, from the log that has its error', () => {
    const rows = traceRows([call('c1', record(100, { stopReason: 'error', attempts: 1 }))], [attempt('c1', 1, 100, 'failed')])
    expect(rows.map((row) => [row.key, row.status])).toEqual([['a:c1#1', 'failed']])
  })

  it('labels rows with what they said, not their ids', () => {
    const thread = createThread({ id: 't', now: () => 1 })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'What is   the weather\nin Oslo?' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c1', toolCallId: 't1' } })
    const entries: readonly Entry[] = thread.entries
    const entryAt = (seq: number) => entries[seq]
    const [answered] = traceRows([{ ...call('c1', record(100)), seqs: [1] }], [])
    expect(traceLabel(answered as TraceRow, entryAt)).toBe('weather({"city":"Oslo"})')
    const failed = {
      ...attempt('c2', 1, 200, 'failed'),
      record: record(200, { basisSeq: 1 }),
      error: { name: 'ProviderAuthError', message: 'invalid x-api-key', status: 401 },
    }
    const [row] = traceRows([], [failed])
    expect(traceLabel(row as TraceRow, entryAt)).toBe('HTTP 401: invalid x-api-key · for “What is the weather in Oslo?”')
  })

  it('compares each row with the request sent just before it, and predicts cache reads after the newest answered one', () => {
    const rows = traceRows(
      [call('c1', record(100)), call('c2', record(300, { attempts: 2 }))],
      [attempt('c2', 1, 200), attempt('c3', 1, 400, 'failed'), attempt('c4', 1, 500, 'aborted')],
    )
    const keys = rows.map((_, index) => {
      const { previous, answered } = rowNeighbours(rows, index)
      return [previous?.key, answered?.key]
    })
    expect(rows.map((row) => row.key)).toEqual(['c:c1', 'a:c2#1', 'c:c2', 'a:c3#1', 'a:c4#1'])
    expect(keys).toEqual([
      [undefined, undefined],
      ['c:c1', 'c:c1'],
      ['a:c2#1', 'c:c1'],
      ['c:c2', 'c:c2'],
      ['a:c3#1', 'c:c2'],
    ])
  })

  it('says how far the provider counted from the local count', () => {
    expect(countDifference(record(1, { localInputTokens: 1_000, inputTokens: 1_031 }))).toBe('+3.1%')
    expect(countDifference(record(1, { localInputTokens: 1_000 }))).toBeUndefined()
  })
})

describe('stepLines', () => {
  it('says each step of a call that ran several: stop reason, tokens with cache reads and writes, timings', () => {
    const steps = [
      {
        stopReason: 'tool-calls',
        inputTokens: 1_200,
        outputTokens: 40,
        cachedInputTokens: 1_000,
        cacheWriteInputTokens: 64,
        firstTokenMs: 310,
        durationMs: 900,
      },
      { stopReason: 'stop' },
    ]
    expect(stepLines(record(0, { steps }))).toEqual([
      'tool-calls · 1,200 in, 40 out, 1,000 cached, 64 written to cache · first token 310 ms · took 900 ms',
      'stop · usage not reported · first token — · took —',
    ])
    expect(stepLines(record(0))).toEqual([])
  })
})
