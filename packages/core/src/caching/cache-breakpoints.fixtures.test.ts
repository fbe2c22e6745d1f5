import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Thread } from '../entries/thread'
import { definePolicy, type PolicyOptions } from '../policy/policy'
import { project } from '../project/project'
import type { PendingMessage, ProjectionResult } from '../project/types'
import type { CacheBreakpoints } from './cache-breakpoints'
import { checkFixture, readFixture } from '../testing/fixture-cases'
import { actionsArbitrary, buildThread, pendingArbitrary, policyOptionsArbitrary, sampleTools, type Action } from '../testing/random-thread'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { cacheBreakpoints, MAX_CACHE_BREAKPOINTS, MAX_OPENAI_EXPLICIT_BREAKPOINTS } from './cache-breakpoints'

// Fixtures of cacheBreakpoints(project(input)) (testing/fixtures/cache-breakpoints.json): each case
// is a random thread (the actions of testing/random-thread.ts, plus optionally one turn of many
// parallel tool calls), policy options, pending messages, tools, memory and counter, with the
// Anthropic and OpenAI breakpoints it must give. They were recorded from the placement project()
// used to run inside `meta` before it became cacheBreakpoints(result) (seeded random cases, the
// smallest that reach each reason and then small ones), and the function agreed on all of them.
// A change to where breakpoints go is a change to the fixture: edit the case by hand, or run
//   UPDATE_FIXTURES=1 node_modules/.bin/vitest run --project node packages/core/src/caching/cache-breakpoints.fixtures.test.ts
// which rewrites the expected breakpoints from the code as it is (refused under CI), and review the diff.

interface BreakpointCase {
  readonly actions: readonly Action[]
  readonly policy: PolicyOptions
  readonly pending: readonly PendingMessage[]
  readonly withTools: boolean
  readonly memory?: string
  /** Parallel tool calls in one more turn: more blocks than a breakpoint looks back. */
  readonly fanOut?: number
  readonly exactCounter: boolean
}

const fixture = new URL('../testing/fixtures/cache-breakpoints.json', import.meta.url)

let exact: TokenCounter
let heuristic: TokenCounter
beforeAll(async () => {
  exact = await createTokenCounter('o200k_base')
  heuristic = await createTokenCounter('heuristic')
})

/** Appends one turn of `calls` parallel tool calls and their results. */
function fanOut(thread: Thread, calls: number): void {
  const callId = `fan-${thread.nextSeq}`
  const ids = Array.from({ length: calls }, (_, position) => `${callId}_${position}`)
  thread.append({ kind: 'message', payload: { role: 'user', content: `Check ${calls} cities.` } })
  thread.appendMany(
    ids.map((toolCallId) => ({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: toolCallId } }, refs: { callId, toolCallId } })),
  )
  thread.appendMany(
    ids.map((toolCallId) => ({ kind: 'tool_result', payload: { name: 'weather', result: `${toolCallId}: rain` }, refs: { callId, toolCallId } })),
  )
}

function placement(input: BreakpointCase): { result: ProjectionResult; breakpoints: CacheBreakpoints } {
  const thread = buildThread(input.actions)
  if (input.fanOut !== undefined) fanOut(thread, input.fanOut)
  const result = project({
    thread,
    policy: definePolicy(input.policy),
    counter: input.exactCounter ? exact : heuristic,
    pending: input.pending,
    ...(input.withTools ? { tools: sampleTools } : {}),
    ...(input.memory === undefined ? {} : { memory: input.memory }),
  })
  return { result, breakpoints: cacheBreakpoints(result) }
}

function placed(input: BreakpointCase): { ok: true; value: unknown } {
  const { anthropic, openAI } = placement(input).breakpoints
  return { ok: true, value: { anthropic, openAI } }
}

const caseArbitrary: fc.Arbitrary<BreakpointCase> = fc.record(
  {
    actions: actionsArbitrary,
    policy: policyOptionsArbitrary,
    pending: pendingArbitrary,
    withTools: fc.boolean(),
    memory: fc.constantFrom('tasks: book the ferry', '世界: 東京', ''),
    fanOut: fc.integer({ min: 8, max: 14 }),
    exactCounter: fc.boolean(),
  },
  { requiredKeys: ['actions', 'policy', 'pending', 'withTools', 'exactCounter'] },
)

describe('cacheBreakpoints(result)', () => {
  it('places the recorded Anthropic and OpenAI breakpoints: cache-breakpoints.json', () => {
    const result = checkFixture(fixture, placed)
    expect(result.cases).toBeGreaterThan(0)
    expect(result.mismatches, `${result.mismatches.length} of ${result.cases} cases differ`).toEqual([])
  })

  it('the fixture reaches every reason the placement can give', () => {
    const outputs = readFixture<BreakpointCase>(fixture).map(
      (item) => ('accept' in item ? item.accept : undefined) as { anthropic: { reason: string }[]; openAI: { reason: string }[] },
    )
    const reasons = (side: 'anthropic' | 'openAI'): string[] =>
      [...new Set(outputs.flatMap((output) => output[side].map((breakpoint) => breakpoint.reason)))].sort()
    expect(reasons('anthropic')).toEqual(['lookback-bridge', 'newest-stable', 'previous-stable', 'request-end', 'stable-base', 'tools-and-system'])
    expect(reasons('openAI')).toEqual(['newest-stable', 'previous-stable', 'stable-base', 'tools-and-system'])
  })

  it('on random threads, keeps within the limits: distinct positions in request order, OpenAI markers on input messages only (seed 20261127)', () => {
    fc.assert(
      fc.property(caseArbitrary, (input) => {
        const { result, breakpoints } = placement(input)
        const positions = breakpoints.anthropic.map((breakpoint) => (breakpoint.at === 'tools' ? -1 : breakpoint.at))
        expect(positions.length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS)
        expect(positions).toEqual([...new Set(positions)].sort((first, second) => first - second))
        expect(breakpoints.openAI.length).toBeLessThanOrEqual(MAX_OPENAI_EXPLICIT_BREAKPOINTS)
        for (const breakpoint of breakpoints.openAI) {
          const message = result.messages[breakpoint.at as number]
          expect(message?.role).not.toBe('assistant')
          expect(message?.content).not.toBe('')
          expect(['request-end', 'lookback-bridge']).not.toContain(breakpoint.reason)
        }
      }),
      { seed: 20261127, numRuns: 300 },
    )
  })
})
