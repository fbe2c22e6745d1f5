import { createThread, definePolicy, type CallRecord, type Entry, type JsonObject } from '@threadlens/core'
import type { CallAttempt, RecordedCall, ThreadCall } from '@threadlens/core/calls'
import { inputBudget } from '@threadlens/core/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { traceRows } from './call-trace-rows'
import {
  axisTicks,
  bucketWords,
  callTicks,
  chartBuckets,
  chartSummary,
  contextSeries,
  pointWords,
  shortTokens,
  type ChartBucket,
  type ContextPoint,
} from './context-chart'

const SEED = 2727

interface CallSpec {
  readonly sent: number | undefined
  readonly reported: number | undefined
  readonly cached: number | undefined
  readonly budget: { readonly max: number; readonly reserve: number } | undefined
  /** Failed tries logged before the answer. */
  readonly failures: number
  /** Summary entries appended after its question, before the call. */
  readonly summariesBefore: number
  /** Entries recall brought back, as the stored record says (absent: a record from before it was kept). */
  readonly recalled?: number | undefined
}

const policyOf = (budget: CallSpec['budget']) =>
  budget === undefined
    ? undefined
    : definePolicy({ name: 'p', tokenizer: 'heuristic', maxInputTokens: budget.max, reserveOutputTokens: budget.reserve })

/** A thread of calls as the spec says: entries, the calls derived from them, and the logged failed tries. */
function build(specs: readonly CallSpec[]): {
  entries: readonly Entry[]
  calls: ThreadCall[]
  attempts: CallAttempt[]
  policies: Map<string, number | undefined>
} {
  const thread = createThread({ id: 't' })
  const calls: ThreadCall[] = []
  const attempts: CallAttempt[] = []
  const policies = new Map<string, number | undefined>()
  for (const [index, spec] of specs.entries()) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `question ${index}` } })
    for (let summary = 0; summary < spec.summariesBefore; summary++) {
      thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: thread.nextSeq - 1, content: 'gist' } })
    }
    const basisSeq = thread.nextSeq
    const callId = `c${index}`
    const policy = policyOf(spec.budget)
    const recalled = spec.recalled === undefined ? {} : { recalledEntries: spec.recalled }
    const record: RecordedCall = {
      callId,
      basisSeq,
      ...(policy === undefined ? {} : { policy }),
      ...(spec.sent === undefined ? {} : { localInputTokens: spec.sent }),
      ...(spec.reported === undefined
        ? {}
        : { usage: { inputTokens: spec.reported, outputTokens: 5, ...(spec.cached === undefined ? {} : { cachedInputTokens: spec.cached }) } }),
      // A record stored with the answer (as a session writes one) carries the same figures, and what recall did.
      ...(spec.recalled === undefined
        ? {}
        : {
            stored: {
              model: 'm',
              provider: 'p',
              counter: 'heuristic',
              policyHash: `h${index}`,
              toolsHash: 'none',
              basisSeq,
              messagesHash: 'x',
              stopReason: 'stop',
              attempts: spec.failures + 1,
              ...(spec.sent === undefined ? {} : { localInputTokens: spec.sent }),
              ...(spec.reported === undefined
                ? {}
                : { inputTokens: spec.reported, outputTokens: 5, ...(spec.cached === undefined ? {} : { cachedInputTokens: spec.cached }) }),
              ...recalled,
            },
          }),
    }
    for (let attempt = 1; attempt <= spec.failures; attempt++) {
      const stored: CallRecord = {
        ...recalled,
        model: 'm',
        provider: 'p',
        counter: 'heuristic',
        policyHash: `h${index}`,
        ...(policy === undefined ? {} : { policy: JSON.parse(JSON.stringify(policy)) as JsonObject }),
        toolsHash: 'none',
        basisSeq,
        messagesHash: 'x',
        stopReason: 'error',
        ...(spec.sent === undefined ? {} : { localInputTokens: spec.sent }),
      }
      attempts.push({
        id: `${callId}#${attempt}`,
        threadId: 't',
        callId,
        attempt,
        status: attempt === spec.failures ? 'retried' : 'failed',
        record: stored,
      })
      policies.set(`a:${callId}#${attempt}`, policy === undefined ? undefined : inputBudget(policy))
    }
    const seq = thread.nextSeq
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${index}` }, refs: { callId } })
    calls.push({
      callId,
      ordinal: index,
      requestId: undefined,
      iteration: undefined,
      parentCallId: undefined,
      firstSeq: seq,
      lastSeq: seq,
      seqs: [seq],
      toolCallCount: 0,
      record,
    })
    policies.set(`c:${callId}`, policy === undefined ? undefined : inputBudget(policy))
  }
  return { entries: thread.entries, calls, attempts, policies }
}

const count = fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined })
const spec: fc.Arbitrary<CallSpec> = fc.record({
  sent: count,
  reported: count,
  cached: count,
  budget: fc.option(
    fc.integer({ min: 1_000, max: 400_000 }).chain((max) => fc.record({ max: fc.constant(max), reserve: fc.integer({ min: 0, max: max - 1 }) })),
    { nil: undefined },
  ),
  failures: fc.integer({ min: 0, max: 2 }),
  summariesBefore: fc.integer({ min: 0, max: 2 }),
  recalled: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
})

describe('contextSeries', () => {
  it(`has every request once, in the order sent, no figure below zero, the budget its recorded policy's, each summary on one request (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 40 }), (specs) => {
        const { entries, calls, attempts, policies } = build(specs)
        const rows = traceRows(calls, attempts)
        const points = contextSeries(rows, entries)
        expect(points.map((point) => point.key)).toEqual(rows.map((row) => row.key))
        expect(points.map((point) => point.index)).toEqual(rows.map((_row, index) => index))
        for (const point of points) {
          for (const value of [point.sent, point.reported, point.cached, point.budget])
            if (value !== undefined) expect(value).toBeGreaterThanOrEqual(0)
          expect(point.budget).toBe(policies.get(point.key))
        }
        const summaries = entries.filter((entry) => entry.kind === 'summary').map((entry) => entry.seq)
        expect(points.flatMap((point) => point.summaries)).toEqual(summaries)
        // The calls' own figures, as recorded.
        for (const [index, call] of specs.entries()) {
          const point = points.find((item) => item.key === `c:c${index}`) as ContextPoint
          expect([point.sent, point.reported, point.cached]).toEqual([
            call.sent,
            call.reported,
            call.reported === undefined ? undefined : call.cached,
          ])
        }
        // Recall is marked on every request whose record says it brought entries back, and on no other.
        for (const point of points) {
          const call = specs[Number(/c(\d+)/.exec(point.callId)?.[1])] as CallSpec
          expect(point.recalled).toBe(call.recalled === undefined || call.recalled === 0 ? undefined : call.recalled)
        }
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('takes no figure that is not a token count, and resolves an attempt’s policy from the call that stored it', () => {
    const { entries, calls, attempts } = build([
      { sent: 10, reported: 12, cached: undefined, budget: { max: 9_000, reserve: 1_000 }, failures: 1, summariesBefore: 0 },
    ])
    const bad = {
      ...calls[0],
      record: { ...calls[0]?.record, callId: 'c0', localInputTokens: -5, usage: { inputTokens: Number.NaN, outputTokens: 1 } },
    } as ThreadCall
    const [attemptPoint, callPoint] = contextSeries(traceRows([bad], attempts), entries)
    expect(callPoint).toMatchObject({ sent: undefined, reported: undefined, budget: 8_000 })
    expect(attemptPoint).toMatchObject({ key: 'a:c0#1', status: 'retried', sent: 10, budget: 8_000 })
  })

  it('is empty for no calls', () => {
    expect(contextSeries([], [])).toEqual([])
  })
})

describe('chartBuckets', () => {
  it(`keeps every point in exactly one bucket, in order, at most the number asked for, with each figure's peak (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 60 }), fc.integer({ min: 1, max: 30 }), (specs, max) => {
        const { entries, calls, attempts } = build(specs)
        const points = contextSeries(traceRows(calls, attempts), entries)
        const buckets = chartBuckets(points, max)
        expect(buckets.length).toBeLessThanOrEqual(max)
        expect(
          buckets.flatMap((bucket) => Array.from({ length: bucket.last - bucket.first + 1 }, (_value, offset) => bucket.first + offset)),
        ).toEqual(points.map((point) => point.index))
        for (const bucket of buckets) {
          const inside = points.slice(bucket.first, bucket.last + 1)
          const sent = inside.map((point) => point.sent).filter((value) => value !== undefined)
          expect(bucket.sent).toBe(sent.length === 0 ? undefined : Math.max(...sent))
          expect(inside.map((point) => point.key)).toContain(bucket.key)
          expect(bucket.unanswered).toBe(inside.filter((point) => point.status !== 'ok').length)
          expect(bucket.summaries).toEqual(inside.flatMap((point) => point.summaries))
        }
      }),
      { seed: SEED, numRuns: 200 },
    )
  })

  it('draws 1,000 calls as at most the buckets asked for, fast', () => {
    const { entries, calls, attempts } = build(
      Array.from({ length: 1_000 }, (_value, index) => ({
        sent: index * 10,
        reported: undefined,
        cached: undefined,
        budget: { max: 20_000, reserve: 2_000 },
        failures: index % 97 === 0 ? 1 : 0,
        summariesBefore: index % 250 === 0 ? 1 : 0,
      })),
    )
    const started = performance.now()
    const buckets = chartBuckets(contextSeries(traceRows(calls, attempts), entries), 120)
    expect(performance.now() - started).toBeLessThan(200)
    expect(buckets.length).toBeLessThanOrEqual(120)
    expect(buckets.at(-1)?.sent).toBe(9_990)
    expect(buckets.reduce((total, bucket) => total + bucket.unanswered, 0)).toBe(11)
    expect(buckets.flatMap((bucket) => bucket.summaries)).toHaveLength(4)
  })
})

describe('axes and words', () => {
  it('ticks cover the largest value in round steps', () => {
    expect(axisTicks(0, 4)).toEqual([0])
    expect(axisTicks(9_500, 4)).toEqual([0, 5_000, 10_000])
    expect(axisTicks(120_000, 3)).toEqual([0, 50_000, 100_000, 150_000])
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e9, noNaN: true }), fc.integer({ min: 1, max: 8 }), (max, count) => {
        const ticks = axisTicks(max, count)
        expect(ticks[0]).toBe(0)
        expect(ticks.at(-1)).toBeGreaterThanOrEqual(max)
        expect(ticks.length).toBeLessThanOrEqual(count * 2 + 2)
      }),
      { seed: SEED },
    )
  })

  it('labels the first and last call and fewer in between when asked for fewer', () => {
    expect(callTicks(0, 5)).toEqual([])
    expect(callTicks(1, 5)).toEqual([1])
    expect(callTicks(1_000, 3)).toEqual([1, 501, 1_000])
    expect(callTicks(1_000, 6).length).toBeGreaterThan(callTicks(1_000, 3).length)
    expect(callTicks(7, 10)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('writes token counts short on the axis', () => {
    expect([shortTokens(950), shortTokens(1_250), shortTokens(12_500), shortTokens(1_200_000)]).toEqual(['950', '1.3k', '13k', '1.2M'])
  })

  it('says the chart and each point in words', () => {
    const point: ContextPoint = {
      key: 'c:a',
      index: 2,
      callId: 'a',
      attempt: 2,
      status: 'failed',
      sent: 1_200,
      reported: undefined,
      cached: 800,
      budget: 8_000,
      summaries: [7],
      recalled: undefined,
    }
    expect(pointWords({ ...point, recalled: 4 })).toBe(`${pointWords(point)} · recall brought back 4 older entries`)
    expect(chartSummary([{ ...point, recalled: 1 }])).toContain('recall brought older entries back into 1 request')
    expect(pointWords(point)).toBe(
      'request 3, call a try 2 (failed) · sent 1,200 tokens · 800 read from cache · budget 8,000 tokens · summary written before it (entry #7)',
    )
    expect(chartSummary([point, { ...point, index: 3, status: 'ok', sent: 3_000, summaries: [] }])).toBe(
      'Prompt size of 2 requests, oldest first; sent from 1,200 to 3,000 tokens (the most at request 4); budget 8,000 tokens; 1 summary written; 1 not answered.',
    )
    expect(chartSummary([{ ...point, sent: undefined, budget: undefined, summaries: [], status: 'ok' }])).toBe(
      'Prompt size of 1 request, oldest first; no local token count recorded.',
    )
    const run = [point, { ...point, index: 3, status: 'ok' as const, sent: 3_000, budget: 6_000, summaries: [] }]
    expect(bucketWords(chartBuckets(run, 2)[0] as ChartBucket, run)).toBe(pointWords(point))
    expect(bucketWords(chartBuckets(run, 1)[0] as ChartBucket, run)).toBe(
      'requests 3 to 4 · sent at most 3,000 tokens · at most 800 read from cache · lowest budget 6,000 tokens · 1 not answered · 1 summary written',
    )
  })
})
