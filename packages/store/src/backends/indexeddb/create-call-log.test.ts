import 'fake-indexeddb/auto'
import type { CallRecord, Entry } from '@threadlens/core'
import type { CallAttempt } from '@threadlens/core/calls'
import { describe, expect, it } from 'vitest'
import { schemaV2 } from './schema'
import { ThreadlensDB } from './threadlens-db'
import { InvalidCallAttemptError } from '../../errors'
import { createMemoryBackedStores } from '../in-memory/create-in-memory-stores'
import { openTestStores, uniqueName } from '../../testing/test-database'
import { upgradeFrom } from '../../testing/older-database'
import type { CallLogEvent } from '../../calls/call-log-store'
import { createCallLog } from './create-call-log'
import { maxAttemptsPerThread } from '../../calls/call-log-store'

const record = (startedAt: number): CallRecord => ({
  model: 'gpt-4o',
  provider: 'openai',
  counter: 'heuristic',
  policyHash: 'p1',
  policy: { name: 'default' },
  toolsHash: 't1',
  tools: [],
  basisSeq: 1,
  messagesHash: 'm1',
  localInputTokens: 40,
  stopReason: 'error',
  startedAt,
  durationMs: 12,
  attempts: 1,
})

const attempt = (threadId: string, callId: string, number: number, startedAt: number, status: CallAttempt['status'] = 'retried'): CallAttempt => ({
  id: `${callId}#${number}`,
  threadId,
  callId,
  requestId: 'r1',
  attempt: number,
  status,
  record: { ...record(startedAt), attempts: number },
  error: { name: 'RateLimitError', message: 'rate limited', status: 429 },
})

const nextEvent = (events: CallLogEvent[], count: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const check = (): void => {
      if (events.length >= count) resolve()
      else if (Date.now() - started > 2_000) reject(new Error(`only ${events.length} of ${count} events`))
      else setTimeout(check, 5)
    }
    check()
  })

describe('the call log in IndexedDB', () => {
  it('keeps a thread’s attempts in the order sent, replaces one written twice, and deletes them with the thread', async () => {
    const { db, threads } = openTestStores('call-log')
    const log = createCallLog(db)
    const { id } = await threads.create()
    const other = await threads.create()
    await log.recordAttempt(attempt(id, 'c2', 1, 300))
    await log.recordAttempt(attempt(id, 'c1', 2, 200))
    await log.recordAttempt(attempt(id, 'c1', 1, 100))
    await log.recordAttempt({ ...attempt(id, 'c1', 1, 100), status: 'failed' })
    await log.recordAttempt(attempt(other.id, 'c9', 1, 50))
    expect((await log.attempts(id)).map((each) => [each.id, each.status])).toEqual([
      ['c1#1', 'failed'],
      ['c1#2', 'retried'],
      ['c2#1', 'retried'],
    ])
    await threads.delete(id)
    expect(await log.attempts(id)).toEqual([])
    expect(await log.attempts(other.id)).toHaveLength(1)
    db.close()
  })

  it('rejects a malformed attempt with a typed error and writes nothing', async () => {
    const { db } = openTestStores('call-log-invalid')
    const log = createCallLog(db)
    const bad = { ...attempt('t1', 'c1', 1, 1), attempt: 0 }
    const error = await log.recordAttempt(bad).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidCallAttemptError)
    expect((error as InvalidCallAttemptError).field).toBe('attempt')
    expect(await log.attempts('t1')).toEqual([])
    db.close()
  })

  it(`keeps at most ${maxAttemptsPerThread} attempts per thread, dropping the oldest`, async () => {
    const { db } = openTestStores('call-log-cap')
    const log = createCallLog(db)
    for (let index = 0; index < maxAttemptsPerThread + 3; index++) await log.recordAttempt(attempt('t1', `c${index}`, 1, 1_000 + index))
    const kept = await log.attempts('t1')
    expect(kept).toHaveLength(maxAttemptsPerThread)
    expect(kept[0]?.callId).toBe('c3')
    db.close()
  })

  it('adds calibration samples from two connections at once without losing one, and tells subscribers of both', async () => {
    const name = uniqueName('calibration')
    const first = new ThreadlensDB({ name })
    const second = new ThreadlensDB({ name })
    const logA = createCallLog(first, { now: () => 5 })
    const logB = createCallLog(second, { now: () => 6 })
    const events: CallLogEvent[] = []
    const stop = logB.subscribeCalibrations((event) => events.push(event))
    await nextEvent(events, 1)
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? logA : logB).addCalibrationSample('claude-sonnet-4-5', 'heuristic', { local: 100, reported: 110 + index, messages: 3 }),
      ),
    )
    const calibration = await logA.calibration('claude-sonnet-4-5', 'heuristic')
    expect(calibration?.calls).toBe(10)
    expect(calibration?.samples).toHaveLength(10)
    expect(calibration?.ratio).toBeCloseTo(1.145, 6)
    // The other connection's subscriber saw the final state.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const last = events[events.length - 1]
    expect(last?.type === 'calibrations-update' ? last.calibrations[0]?.calls : undefined).toBe(10)
    stop()
    first.close()
    second.close()
  })

  it('streams a thread’s attempts to a subscriber as they are written', async () => {
    const { db } = openTestStores('call-log-live')
    const log = createCallLog(db)
    const events: CallLogEvent[] = []
    const stop = log.subscribeAttempts('t1', (event) => events.push(event))
    await nextEvent(events, 1)
    await log.recordAttempt(attempt('t1', 'c1', 1, 10))
    await nextEvent(events, 2)
    const last = events[events.length - 1]
    expect(last?.type === 'attempts-update' ? last.attempts.map((each) => each.id) : undefined).toEqual(['c1#1'])
    stop()
    db.close()
  })
})

describe('calibration folded into the reply’s write', () => {
  it('an appended reply with reported usage calibrates its model in the same transaction; an aborted one does not', async () => {
    const { db, threads } = openTestStores('call-log-fold')
    const log = createCallLog(db)
    const { id } = await threads.create()
    const answered = { ...record(1), stopReason: 'stop', inputTokens: 44, sentMessages: 3 }
    await threads.appendMany(id, [
      { kind: 'message', payload: { role: 'user', content: 'q' } },
      { kind: 'message', payload: { role: 'assistant', content: 'a' }, refs: { callId: 'c1' }, meta: { call: answered } },
      {
        kind: 'message',
        payload: { role: 'assistant', content: '' },
        refs: { callId: 'c2' },
        meta: { call: { ...answered, stopReason: 'abort' }, interrupted: true },
      },
    ])
    const calibration = await log.calibration('gpt-4o', 'heuristic')
    expect(calibration?.calls).toBe(1)
    expect(calibration?.samples).toEqual([{ local: 40, reported: 44, messages: 3 }])
    // What this tab wrote is known without another read.
    expect(log.recentCalibration?.('gpt-4o', 'heuristic')).toEqual(calibration)
    db.close()
  })
})

describe('the in-memory call log of the fallback stores', () => {
  it('behaves the same: ordered, validated, deleted with the thread, calibrated', async () => {
    const stores = createMemoryBackedStores()
    const { id } = await stores.threads.create()
    await stores.calls.recordAttempt(attempt(id, 'c1', 2, 20))
    await stores.calls.recordAttempt(attempt(id, 'c1', 1, 10))
    expect((await stores.calls.attempts(id)).map((each) => each.id)).toEqual(['c1#1', 'c1#2'])
    await expect(stores.calls.recordAttempt({ ...attempt(id, 'c1', 1, 1), status: 'ok' as never })).rejects.toBeInstanceOf(InvalidCallAttemptError)
    await stores.threads.delete(id)
    expect(await stores.calls.attempts(id)).toEqual([])
    const calibration = await stores.calls.addCalibrationSample('m', 'heuristic', { local: 10, reported: 12, messages: 1 })
    expect(calibration.ratio).toBeCloseTo(1.2, 6)
  })
})

describe('schema version 3', () => {
  it('upgrades a version 2 database: threads, entries and memory intact, the call log usable at once', async () => {
    const entries = [
      { id: 'e0', threadId: 'v2-thread', seq: 0, kind: 'message', payload: { role: 'user', content: 'hello' }, refs: {}, createdAt: 1 },
      {
        id: 'e1',
        threadId: 'v2-thread',
        seq: 1,
        kind: 'message',
        payload: { role: 'assistant', content: 'hi' },
        refs: { callId: 'c1' },
        createdAt: 2,
      },
    ] as unknown as Entry[]
    const { db, threads, threadId } = await upgradeFrom(2, schemaV2, entries)
    expect(db.verno).toBeGreaterThanOrEqual(3)
    const log = createCallLog(db)
    await log.recordAttempt(attempt(threadId, 'c2', 1, 5))
    expect(await log.attempts(threadId)).toHaveLength(1)
    expect((await threads.append(threadId, { kind: 'message', payload: { role: 'user', content: 'again' } })).seq).toBe(2)
    db.close()
  })
})
