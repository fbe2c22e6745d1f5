import { createTokenCounter, definePolicy, type PolicyOptions, type ProjectionResult, type TokenCounter } from '@threadlens/core'
import { memoryWindowKey } from '@threadlens/core/caching'
import { createMemoryBackedStores } from '@threadlens/store'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { scriptedModel } from '../model/scripted-model'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'
import { holdTurns, largeRevisionTurns, windowTokens } from '../testing/memory-sessions'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const TURNS = 24
const HOLD = 4

async function drain(events: AsyncIterable<SessionEvent>): Promise<void> {
  for await (const event of events) if (event.type === 'error') throw event.error
}

/** A session whose memory changes before every turn; the projection of every model call, and the memory turn it showed. */
async function run(
  cache: PolicyOptions['cache'],
  options: { turns?: number; maxInputTokens?: number; large?: readonly boolean[] } = {},
): Promise<{ projections: ProjectionResult[]; shownTurns: number[] }> {
  const { threads, memory } = createMemoryBackedStores({ counters: [counter] })
  const record = await threads.create()
  const model = scriptedModel({ script: () => 'Noted, the plan stays as it is and we keep going with the next step of it.' })
  const policy = definePolicy({
    maxInputTokens: options.maxInputTokens ?? 700,
    reserveOutputTokens: 100,
    cacheFriendly: true,
    memorySpaces: ['world'],
    cache,
  })
  const session = createSession({ threads, threadId: record.id, model, counter, policy, memory: () => memory.get('agent') })
  for (let turn = 0; turn < (options.turns ?? TURNS); turn++) {
    // A large revision adds a long field (kept from then on); a small one changes two short ones.
    const extra = options.large?.[turn] === true ? { [`detail_${turn}`]: `a long new finding about the trip, `.repeat(12) } : {}
    await memory.update('agent', 'world', (world) => ({ ...world, ...extra, turn, note: `step ${turn} of the plan` }))
    await drain(session.send(`Turn ${turn}: what is the next step of the trip plan, in a few words please?`))
  }
  const projections = model.requests.map((request) => request.projection)
  const shownTurns = projections.map((projection) => {
    const memoryText = projection.messages[0]?.content ?? ''
    const match = /turn: (\d+)/.exec(memoryText)
    expect(match, 'the memory segment opens every request').not.toBeNull()
    return Number(match?.[1])
  })
  return { projections, shownTurns }
}

/** Whether `later` repeats every message of `earlier`, byte for byte, before its own. */
function repeatsPrefix(earlier: ProjectionResult, later: ProjectionResult): boolean {
  return JSON.stringify(later.messages.slice(0, earlier.messages.length)) === JSON.stringify(earlier.messages)
}

describe('memory hysteresis in the session (cache.memoryHoldTurns)', () => {
  it(`keeps the prompt prefix byte-identical between window moves while memory changes every turn, and never shows memory more than ${HOLD - 1} turns old`, async () => {
    const { projections, shownTurns } = await run({ memoryHoldTurns: HOLD })
    expect(projections).toHaveLength(TURNS)
    let held = 0
    let windowMoves = 0
    for (let turn = 0; turn < TURNS; turn++) {
      // The bound: the memory shown is never older than HOLD - 1 turns (and never from the future).
      expect(turn - (shownTurns[turn] as number)).toBeGreaterThanOrEqual(0)
      expect(turn - (shownTurns[turn] as number)).toBeLessThan(HOLD)
      if (turn === 0) continue
      const previous = projections[turn - 1] as ProjectionResult
      const current = projections[turn] as ProjectionResult
      const moved = memoryWindowKey(previous.meta) !== memoryWindowKey(current.meta)
      if (moved) windowMoves++
      if (shownTurns[turn] !== turn) held++
      if (shownTurns[turn] === shownTurns[turn - 1]) {
        // Memory held: everything the previous call sent is repeated as is.
        expect(repeatsPrefix(previous, current)).toBe(true)
      } else {
        // Memory re-rendered: only when the window moved, or the held text reached its age bound.
        expect(moved || turn - (shownTurns[turn - 1] as number) >= HOLD).toBe(true)
      }
    }
    // The run exercised both: memory held across turns, and windows that moved.
    expect(held).toBeGreaterThan(TURNS / 3)
    expect(windowMoves).toBeGreaterThan(0)
  })

  it('without hysteresis (memoryHoldTurns 1) the same session rewrites the prefix on every turn', async () => {
    const { projections, shownTurns } = await run({ memoryHoldTurns: 1 })
    expect(shownTurns).toEqual(Array.from({ length: TURNS }, (_, turn) => turn))
    for (let turn = 1; turn < TURNS; turn++)
      expect(repeatsPrefix(projections[turn - 1] as ProjectionResult, projections[turn] as ProjectionResult)).toBe(false)
  })

  const SEED = 20261123
  it(`for random hold bounds, budgets and revision sizes: a held memory repeats the prefix, a re-render has a reason, the bound holds (25 sessions, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(holdTurns, windowTokens, largeRevisionTurns(16), async (hold, maxInputTokens, large) => {
        const { projections, shownTurns } = await run(
          { memoryHoldTurns: hold, memoryRefreshTokens: 40 },
          { turns: large.length, maxInputTokens, large },
        )
        for (let turn = 0; turn < large.length; turn++) {
          const shown = shownTurns[turn] as number
          expect(turn - shown).toBeGreaterThanOrEqual(0)
          expect(turn - shown).toBeLessThan(hold)
          // A large revision is sent at once (its change is over memoryRefreshTokens).
          if (large[turn] === true) expect(shown).toBe(turn)
          if (turn === 0) continue
          const previous = projections[turn - 1] as ProjectionResult
          const current = projections[turn] as ProjectionResult
          if (shown === shownTurns[turn - 1]) expect(repeatsPrefix(previous, current)).toBe(true)
          else {
            const moved = memoryWindowKey(previous.meta) !== memoryWindowKey(current.meta)
            expect(moved || turn - (shownTurns[turn - 1] as number) >= hold || large[turn] === true).toBe(true)
          }
        }
      }),
      { numRuns: 25, seed: SEED },
    )
  })
})
