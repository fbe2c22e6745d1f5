import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Thread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { oracleCacheBreakpoints } from '../testing/oracle/cache-breakpoints.oracle'
import { actionsArbitrary, buildThread, pendingArbitrary, policyOptionsArbitrary, sampleTools } from '../testing/random-thread'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { cacheBreakpoints } from './cache-breakpoints'
import { project } from '../project/project'
import type { CacheBreakpointReason, ProjectInput } from '../project/types'

// A fixed seed makes every run check the same threads; fast-check prints the seed and the shrunk
// counterexample on failure.
const SEED = 20261127
const RUNS = 1500

let exact: TokenCounter
let heuristic: TokenCounter
beforeAll(async () => {
  exact = await createTokenCounter('o200k_base')
  heuristic = await createTokenCounter('heuristic')
})

/** Appends one turn of `calls` parallel tool calls and their results: more blocks than a breakpoint looks back. */
function fanOut(thread: Thread, calls: number): void {
  const callId = `fan-${thread.nextSeq}`
  const ids = Array.from({ length: calls }, (_, position) => `${callId}_${position}`)
  thread.append({ kind: 'message', payload: { role: 'user', content: `Check ${calls} cities.` } })
  thread.appendMany(ids.map((toolCallId) => ({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: toolCallId } }, refs: { callId, toolCallId } })))
  thread.appendMany(ids.map((toolCallId) => ({ kind: 'tool_result', payload: { name: 'weather', result: `${toolCallId}: rain` }, refs: { callId, toolCallId } })))
}

const caseArbitrary = fc
  .record({
    actions: actionsArbitrary,
    policy: policyOptionsArbitrary,
    pending: pendingArbitrary,
    withTools: fc.boolean(),
    memory: fc.option(fc.constantFrom('tasks: book the ferry', '世界: 東京', ''), { nil: undefined }),
    fanOut: fc.option(fc.integer({ min: 8, max: 14 }), { nil: undefined, freq: 3 }),
    exactCounter: fc.boolean(),
  })
  .map(({ actions, policy, pending, withTools, memory, fanOut: calls, exactCounter }) => {
    const thread = buildThread(actions)
    if (calls !== undefined) fanOut(thread, calls)
    const input: ProjectInput = {
      thread,
      policy: definePolicy(policy),
      counter: exactCounter ? exact : heuristic,
      pending,
      ...(withTools ? { tools: sampleTools } : {}),
      ...(memory === undefined ? {} : { memory }),
    }
    return Object.assign(input, { [fc.toStringMethod]: () => `entries=${JSON.stringify(thread.entries)} policy=${JSON.stringify(input.policy)} pending=${JSON.stringify(pending)}` })
  })

// Which reasons the random cases reached: the check below is only as good as the cases it saw.
const seen = { anthropic: new Set<CacheBreakpointReason>(), openAI: new Set<CacheBreakpointReason>() }

describe('cacheBreakpoints(result): the placement project() used to put in meta', () => {
  it(`gives exactly the Anthropic and OpenAI breakpoints the placement inside project() gave (${RUNS} random threads, seed ${SEED})`, () => {
    fc.assert(
      fc.property(caseArbitrary, (input) => {
        const result = project(input)
        const placed = cacheBreakpoints(result)
        const oracle = oracleCacheBreakpoints(input)
        expect(placed.anthropic).toEqual(oracle.breakpoints)
        expect(placed.openAI).toEqual(oracle.openAIBreakpoints)
        for (const breakpoint of placed.anthropic) seen.anthropic.add(breakpoint.reason)
        for (const breakpoint of placed.openAI) seen.openAI.add(breakpoint.reason)
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })

  afterAll(() => {
    // Every reason the placement can give was compared at least once.
    expect([...seen.anthropic].sort()).toEqual(['lookback-bridge', 'newest-stable', 'previous-stable', 'request-end', 'stable-base', 'tools-and-system'])
    expect([...seen.openAI].sort()).toEqual(['newest-stable', 'previous-stable', 'stable-base', 'tools-and-system'])
  })
})
