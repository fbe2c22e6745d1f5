import { createThread, definePolicy, InvalidEntryError, project, type Entry, type EntryInput, type ProjectionResult } from '@threadlens/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
// Core's random-thread generator (not exported by @threadlens/core): the same awkward threads the projector's own properties use.
import { actionArbitrary, actionsArbitrary, buildThread, pendingArbitrary, policyOptionsArbitrary, type Action } from '@threadlens/testing'
import { openTestStores } from '../testing/test-database'
import { deterministicOptions, testCounter } from '../testing/thread-store-contract'

// Fixed seeds: every run checks the same cases; fast-check prints the seed and the shrunk case on failure.
const SEED = 20261122

type Operation = { readonly type: 'append'; readonly input: EntryInput } | { readonly type: 'appendMany'; readonly inputs: readonly EntryInput[] }

const toolIds = ['a', 'b', 'c', 'd']

/** Valid and invalid inputs mixed: duplicate call ids, results without calls, summaries and pins pointing ahead, bad schemas. */
const inputArbitrary: fc.Arbitrary<EntryInput> = fc.oneof(
  fc.record({
    kind: fc.constant('message' as const),
    payload: fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: fc.string({ maxLength: 20 }) }),
  }),
  fc.constantFrom(...toolIds).map((toolCallId): EntryInput => ({
    kind: 'tool_call',
    payload: { name: 'calc', arguments: { x: 1 } },
    refs: { callId: `m-${toolCallId}`, toolCallId },
  })),
  fc.constantFrom(...toolIds).map((toolCallId): EntryInput => ({ kind: 'tool_result', payload: { name: 'calc', result: 2 }, refs: { toolCallId } })),
  fc
    .tuple(fc.nat(12), fc.nat(12))
    .map(([a, b]): EntryInput => ({ kind: 'summary', payload: { fromSeq: Math.min(a, b), toSeq: Math.max(a, b), content: 'so far' } })),
  fc.nat(12).map((target): EntryInput => ({ kind: 'context_op', payload: { op: 'pin', target, reason: 'test' } })),
  fc.constant({ kind: 'message', payload: { role: 'robot', content: 'x' } } as unknown as EntryInput),
)

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  inputArbitrary.map((input): Operation => ({ type: 'append', input })),
  fc.array(inputArbitrary, { minLength: 1, maxLength: 5 }).map((inputs): Operation => ({ type: 'appendMany', inputs })),
)

const comparable = (entry: Entry) => ({ seq: entry.seq, kind: entry.kind, payload: entry.payload, refs: entry.refs })

describe('appends (property)', () => {
  it(`accept and reject exactly as core's Thread does, keep seq gapless, and a rejected batch changes nothing (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArbitrary, { maxLength: 25 }), async (operations) => {
        const { threads, db } = openTestStores('append-property', deterministicOptions())
        const { id } = await threads.create()
        const reference = createThread({ id })
        for (const operation of operations) {
          const inputs = operation.type === 'append' ? [operation.input] : operation.inputs
          let expected: unknown
          try {
            reference.appendMany(inputs)
          } catch (error) {
            expected = error
          }
          const before = (await threads.get(id))?.lastSeq
          const outcome = await (operation.type === 'append' ? threads.append(id, operation.input) : threads.appendMany(id, operation.inputs)).then(
            () => undefined,
            (error: unknown) => error,
          )
          if (expected === undefined) expect(outcome).toBeUndefined()
          else {
            expect(outcome).toBeInstanceOf(InvalidEntryError)
            // A batch is checked schema first (before the transaction), then rules: with several bad inputs the first error named may differ from core's.
            if (inputs.length === 1) expect((outcome as InvalidEntryError).field).toBe((expected as InvalidEntryError).field)
            expect((await threads.get(id))?.lastSeq).toBe(before)
          }
        }
        const stored = (await threads.load(id)).entries
        expect(stored.map((entry) => entry.seq)).toEqual(stored.map((_, position) => position))
        expect(stored.map(comparable)).toEqual(reference.entries.map(comparable))
        expect(await threads.get(id)).toMatchObject({ entryCount: stored.length, lastSeq: stored.length - 1 })
        db.close()
      }),
      { seed: SEED, numRuns: 150 },
    )
  }, 120_000)
})

describe('export and import (property)', () => {
  it(`round-trip any thread with identical content (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(actionsArbitrary, async (actions) => {
        const { threads, db } = openTestStores('round-trip', deterministicOptions())
        const source = buildThread(actions)
        const { id } = await threads.create({ title: 'round trip', metadata: { n: actions.length } })
        if (source.entries.length > 0)
          await threads.appendMany(
            id,
            source.entries.map(
              ({ kind, payload, refs, meta, createdAt, id: entryId }) =>
                ({ kind, payload, refs, createdAt, id: entryId, ...(meta === undefined ? {} : { meta }) }) as EntryInput,
            ),
          )
        const exported = await threads.export(id)
        const { threadId: copyId } = await threads.import(exported)
        const original = await threads.load(id)
        const copy = await threads.load(copyId)
        const withoutThread = (entry: Entry) => {
          const { threadId: _threadId, ...rest } = entry
          return rest
        }
        expect(copy.entries.map(withoutThread)).toEqual(original.entries.map(withoutThread))
        // Exporting the copy gives the same lines, but for the thread id and the header's times.
        const again = (await threads.export(copyId)).split('\n').slice(1).join('\n')
        expect(again.replaceAll(copyId, id)).toBe(exported.split('\n').slice(1).join('\n'))
        db.close()
      }),
      { seed: SEED, numRuns: 60 },
    )
  }, 120_000)
})

const projectionOf = (result: ProjectionResult) => ({
  messages: result.messages,
  includedSeqs: result.meta.includedSeqs,
  tokens: result.meta.tokens,
  summarySeq: result.meta.summary?.seq,
  overflow: result.meta.overflow,
  messageTokens: result.meta.messages.map((info) => [info.segment, info.tokens, info.seqs]),
})

/**
 * Threads whose newest part is long next to the budget, so windows really cut: core's awkward
 * prefix (summaries, resets, pins, late results), then a tail of turns and tool calls (with late
 * results straddling user messages, and a few pins), under budgets of 20 to 400 tokens.
 */
const tailActionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 12, arbitrary: actionArbitrary.filter((action) => action.type === 'user' || action.type === 'assistant' || action.type === 'call') },
  // Recent pins and summaries: old ones would pull every window back to them.
  {
    weight: 1,
    arbitrary: actionArbitrary
      .filter((action) => action.type === 'pin' || action.type === 'summary')
      .map((action): Action =>
        action.type === 'pin'
          ? { ...action, fraction: 0.85 + 0.15 * action.fraction }
          : action.type === 'summary'
            ? { ...action, fromFraction: 0.5 + 0.5 * action.fromFraction, toFraction: 0.5 + 0.5 * action.toFraction }
            : action,
      ),
  },
)
const windowCaseArbitrary = fc.record({
  actions: fc.tuple(actionsArbitrary, fc.array(tailActionArbitrary, { minLength: 40, maxLength: 200 })).map(([prefix, tail]) => [...prefix, ...tail]),
  policyOptions: fc
    .tuple(policyOptionsArbitrary, fc.integer({ min: 20, max: 250 }), fc.double({ min: 0, max: 0.5, noNaN: true }), fc.integer({ min: 0, max: 3 }))
    .map(([options, maxInputTokens, reserve, cacheDie]) => ({
      ...options,
      cacheFriendly: cacheDie === 0,
      maxInputTokens,
      reserveOutputTokens: Math.floor(maxInputTokens * reserve),
    })),
  pending: pendingArbitrary,
})

describe('windowed load (property)', () => {
  it(`projects to the same messages as the whole thread, for random threads and policies (seed ${SEED})`, async () => {
    let windowsThatCut = 0
    await fc.assert(
      fc.asyncProperty(windowCaseArbitrary, async ({ actions, policyOptions, pending }) => {
        const { threads, db } = openTestStores('window', deterministicOptions())
        const source = buildThread(actions)
        const { id } = await threads.create()
        if (source.entries.length > 0)
          await threads.appendMany(
            id,
            source.entries.map(({ kind, payload, refs, meta }) => ({ kind, payload, refs, ...(meta === undefined ? {} : { meta }) }) as EntryInput),
          )
        const policy = definePolicy(policyOptions)
        const whole = await threads.load(id)
        const window = await threads.load(id, { window: { policy, counter: testCounter } })
        expect(window.nextSeq).toBe(whole.nextSeq)
        const input = { policy, counter: testCounter, pending }
        const fromWindow = project({ ...input, thread: window })
        const fromWhole = project({ ...input, thread: whole })
        if (policy.cacheFriendly) {
          // A cache-friendly grid is anchored at the window's start: the same guarantees, maybe another grid point.
          expect(fromWindow.meta.tokens.total <= fromWindow.meta.budget.input || fromWindow.meta.overflow).toBe(true)
          expect(fromWindow.meta.overflow).toBe(fromWhole.meta.overflow)
          // The latest user message and pinned entries the whole projection keeps, the window keeps too.
          const latestUser = whole.index.userSeqs.at(-1)
          if (latestUser !== undefined && fromWhole.meta.includedSeqs.includes(latestUser)) expect(fromWindow.meta.includedSeqs).toContain(latestUser)
        } else expect(projectionOf(fromWindow)).toEqual(projectionOf(fromWhole))
        if (window.firstSeq > Math.max(0, whole.index.resetSeq + 1)) windowsThatCut++
        db.close()
      }),
      { seed: SEED, numRuns: 300 },
    )
    // The property means little unless most windows leave something out.
    console.log(`[threadlens] windowed load property: ${windowsThatCut} of 300 windows left entries out`)
    expect(windowsThatCut).toBeGreaterThan(150)
  }, 120_000)

  it('reads a small part of a long thread', async () => {
    const { threads, db } = openTestStores('window-size', deterministicOptions())
    const { id } = await threads.create()
    const inputs: EntryInput[] = []
    for (let turn = 0; turn < 1000; turn++) {
      inputs.push({ kind: 'message', payload: { role: 'user', content: `question ${turn} `.repeat(10) } })
      inputs.push({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn} `.repeat(20) } })
    }
    await threads.appendMany(id, inputs)
    const policy = definePolicy({ maxInputTokens: 8000, reserveOutputTokens: 1000 })
    const window = await threads.load(id, { window: { policy, counter: testCounter } })
    expect(window.firstSeq).toBeGreaterThan(1700)
    expect(window.entries.length).toBeLessThan(300)
    db.close()
  })
})
