import { createTokenCounter, definePolicy, type SessionSnapshot, type SessionSource } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { scriptedModel } from '../model/scripted-model'
import { defineTool } from '../tools/define-tool'
import { createSession, type Session } from './create-session'

// Every field of the contract, by name: the compiler fails here when the contract gains or loses one.
const contractFields: Record<keyof SessionSnapshot, true> = {
  threadId: true,
  status: true,
  requestId: true,
  pendingMessage: true,
  streamingText: true,
  runningTools: true,
  policy: true,
  tools: true,
  memory: true,
  lastProjection: true,
  calls: true,
  lastError: true,
  deferredOperations: true,
  retry: true,
  serverLimit: true,
}

const echo = defineTool({ name: 'echo', description: 'Says it back', parameters: z.object({ text: z.string() }), execute: ({ text }) => text })

describe('the session contract', () => {
  it('is met by Session at the type level: useSession and the devtools take a Session as it is', () => {
    expectTypeOf<Session>().toExtend<SessionSource>()
    expectTypeOf<ReturnType<Session['getSnapshot']>>().toEqualTypeOf<SessionSnapshot>()
  })

  it('is filled completely by a real session, before, during and after a request', async () => {
    const counter = await createTokenCounter('heuristic')
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const { id: threadId } = await threads.create({ title: 'contract' })
    const policy = definePolicy({ systemPrompt: 'Be brief.' })
    const session = createSession({
      threads,
      threadId,
      model: scriptedModel({ script: ['Hello.'] }),
      tools: [echo],
      counter,
      policy,
      memory: () => 'The user likes tea.',
    })
    const before = session.getSnapshot()
    expect(Object.keys(before).sort()).toEqual(Object.keys(contractFields).sort())
    expect(before).toMatchObject({ threadId, status: 'idle', policy, tools: [echo.schema], calls: [], pendingMessage: undefined })

    const seen: SessionSnapshot[] = []
    const unsubscribe = session.subscribe((snapshot) => seen.push(snapshot))
    for await (const event of session.send('Hi!')) if (event.type === 'error') throw event.error
    unsubscribe()
    // The message is pending until it is in the thread, and never after.
    expect(seen.some((snapshot) => snapshot.pendingMessage === 'Hi!')).toBe(true)
    const inFlight = seen.find((snapshot) => snapshot.status === 'awaiting-model')
    expect(inFlight?.memory).toContain('The user likes tea.')
    expect(inFlight?.calls).toHaveLength(1)

    const after = session.getSnapshot()
    expect(Object.keys(after).sort()).toEqual(Object.keys(contractFields).sort())
    expect(after.status).toBe('idle')
    expect(after.pendingMessage).toBeUndefined()
    const [call] = after.calls
    const entries = (await threads.load(threadId)).entries
    expect(entries.find((entry) => entry.refs.callId !== undefined)?.refs.callId).toBe(call?.callId)
    expect(call).toMatchObject({ policy, counter: 'heuristic', model: 'scripted', tools: [echo.schema], basisSeq: 1 })
  })
})
