import { createTokenCounter, definePolicy, project, type ContextPolicy, type PolicyOptions, type ProjectionResult } from '@threadlens/core'
import { memoryWindowKey } from '@threadlens/core/caching'
import { requestMemoryText } from '@threadlens/core/memory'
import { createMemoryBackedStores } from '@threadlens/store'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { scriptedModel } from '../model/scripted-model'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'
import { holdTurns, largeRevisionTurns, windowTokens } from '../testing/memory-sessions'

const counter = await createTokenCounter('heuristic')

async function drain(events: AsyncIterable<SessionEvent>): Promise<void> {
  for await (const event of events) if (event.type === 'error') throw event.error
}

/** The memory segment's text in a projection (`''` without one). */
function memoryOf(projection: ProjectionResult): string {
  const index = projection.meta.messages.findIndex((info) => info.segment === 'memory')
  return index === -1 ? '' : (projection.messages[index]?.content ?? '')
}

interface Turn {
  /** What the app projected for the next call: the stored thread with the session's `nextCallMemory()`. */
  readonly next: ProjectionResult
  /** The first model call the send then made. */
  readonly sent: ProjectionResult
  /** The memory rendered fresh when the app asked. */
  readonly fresh: string
}

/**
 * A chat whose memory changes before every turn (a large revision on the turns `large` marks). Before
 * each send the app does what the demo's meter does: asks the session for the next call's memory and
 * projects the stored thread with it.
 */
async function chat(policyOptions: PolicyOptions, options: { turns: number; large?: readonly boolean[] }): Promise<Turn[]> {
  const { threads, memory } = createMemoryBackedStores({ counters: [counter] })
  const record = await threads.create()
  const model = scriptedModel({ script: () => 'Noted, the plan stays as it is and we keep going with the next step of it.' })
  const policy: ContextPolicy = definePolicy({ reserveOutputTokens: 100, memorySpaces: ['world'], ...policyOptions })
  const session = createSession({ threads, threadId: record.id, model, counter, policy, memory: () => memory.get('agent') })
  const turns: Turn[] = []
  for (let turn = 0; turn < options.turns; turn++) {
    const extra = options.large?.[turn] === true ? { [`detail_${turn}`]: 'a long new finding about the trip, '.repeat(12) } : {}
    await memory.update('agent', 'world', (world) => ({ ...world, ...extra, turn, note: `step ${turn} of the plan` }))
    const predicted = await session.nextCallMemory()
    const next = project({ thread: await threads.load(record.id), policy, counter, ...(predicted === undefined ? {} : { memory: predicted }) })
    const fresh = requestMemoryText(await memory.get('agent'), policy, counter)
    await drain(session.send(`Turn ${turn}: what is the next step of the trip plan, in a few words please?`))
    turns.push({ next, sent: model.requests.at(-1)?.projection as ProjectionResult, fresh })
  }
  return turns
}

/**
 * The app's next-call projection is what the session then sends, but for the user's message the send
 * adds: the same memory text and every message before it byte for byte — whenever that message leaves
 * the prompt's stable base where it was (when it moves the cache window, everything after the system
 * prompt is rewritten anyway and the memory is rendered fresh). Returns how many turns held memory
 * and how many the send's own message moved the window on.
 */
function expectNextCallIsSent(turns: readonly Turn[]): { held: number; moved: number } {
  let held = 0
  let moved = 0
  for (const [index, { next, sent, fresh }] of turns.entries()) {
    const at = `turn ${index}`
    if (memoryWindowKey(next.meta) !== memoryWindowKey(sent.meta)) {
      moved++
      expect(memoryOf(sent), `${at}: a moved window sends the memory fresh`).toBe(fresh)
      continue
    }
    expect(memoryOf(sent), at).toBe(memoryOf(next))
    expect(sent.messages.slice(0, -1), at).toEqual(next.messages)
    expect(sent.messages.at(-1), at).toMatchObject({ role: 'user', content: expect.stringMatching(new RegExp(`^Turn ${index}:`)) })
    if (memoryOf(next) !== fresh) held++
  }
  return { held, moved }
}

describe("an app's next-call projection (session.nextCallMemory) is what the session then sends", () => {
  it('with memory held across turns (cacheFriendly, memoryHoldTurns 4): the held text, until the turns run out', async () => {
    const turns = await chat({ maxInputTokens: 4000, cacheFriendly: true, cache: { memoryHoldTurns: 4 } }, { turns: 14 })
    const { held, moved } = expectNextCallIsSent(turns)
    expect(moved).toBe(0)
    // The hold applied, so the meter shows memory older than the store's: a fresh rendering would be wrong.
    expect(held).toBeGreaterThan(turns.length / 2)
    // And it runs out on the send's own turn: every 4th call renders fresh, which the app foresaw.
    const refreshed = turns.flatMap(({ next }, index) =>
      index > 0 && memoryOf(next) !== memoryOf(turns[index - 1]?.next as ProjectionResult) ? [index] : [],
    )
    expect(refreshed).toEqual([4, 8, 12])
  })

  it('without a hold (memoryHoldTurns 1), and before the session has sent anything: the memory as it is now', async () => {
    const turns = await chat({ maxInputTokens: 4000, cacheFriendly: true }, { turns: 4 })
    expect(expectNextCallIsSent(turns)).toEqual({ held: 0, moved: 0 })
    expect(turns.map(({ next, fresh }) => memoryOf(next) === fresh)).toEqual([true, true, true, true])
  })

  const SEED = 20261127
  it(`for random hold bounds, windows and revision sizes, held or not, the window moving or not (20 chats, seed ${SEED})`, async () => {
    let held = 0
    let moved = 0
    await fc.assert(
      fc.asyncProperty(holdTurns, windowTokens, largeRevisionTurns(14), async (hold, maxInputTokens, large) => {
        const counts = expectNextCallIsSent(
          await chat(
            { maxInputTokens, cacheFriendly: true, cache: { memoryHoldTurns: hold, memoryRefreshTokens: 40 } },
            { turns: large.length, large },
          ),
        )
        held += counts.held
        moved += counts.moved
      }),
      { numRuns: 20, seed: SEED },
    )
    // The runs covered both: memory held, and sends whose message moved the window.
    expect(held).toBeGreaterThan(0)
    expect(moved).toBeGreaterThan(0)
  })
})
