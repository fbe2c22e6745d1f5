import { createSession } from '@threadlens/agent'
import { scriptedModel } from '@threadlens/agent/testing'
import { cachedProjection } from '@threadlens/client'
import { createTokenCounter, withPolicy, type ProjectionResult, type TokenCounter } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { beforeAll, describe, expect, it } from 'vitest'
import { ASSISTANT_MEMORY_ID } from '../chat-config'
import { presetChoices } from '../policy/chat-policies'
import { demoToolSchemas } from '../tools/demo-tool-schemas'
import { demoTools } from '../tools/demo-tools'
import { nextCallMemory } from './use-next-call-memory'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

function memoryOf(projection: ProjectionResult): string {
  const index = projection.meta.messages.findIndex((info) => info.segment === 'memory')
  return index === -1 ? '' : (projection.messages[index]?.content ?? '')
}

describe("the chat's next-call meter", () => {
  it('projects what the session then sends, memory hold included: before the session exists and after each call', async () => {
    const { threads, memory } = createMemoryBackedStores({ counters: [counter] })
    const threadId = (await threads.create()).id
    // The demo's long-context preset, cache-friendly with memory held for 3 turns, counted with the heuristic.
    const base = presetChoices.find((choice) => choice.id === 'long')?.policy
    if (base === undefined) throw new Error('no long-context preset')
    const policy = withPolicy(base, { tokenizer: 'heuristic', cacheFriendly: true, cache: { memoryHoldTurns: 3 } })
    const model = scriptedModel({ script: () => 'Noted.' })
    const readMemory = () => memory.get(ASSISTANT_MEMORY_ID)
    let session: ReturnType<typeof createSession> | undefined
    let held = 0
    for (let turn = 0; turn < 7; turn++) {
      await memory.update(ASSISTANT_MEMORY_ID, 'world', (world) => ({ ...world, [`note_${turn}`]: `remembered on turn ${turn}` }))
      // What the chat's meter projects: the stored thread, the tools' schemas, the next call's memory.
      const next = await nextCallMemory(session, await readMemory(), policy)
      const outcome = cachedProjection(await threads.load(threadId), policy, counter, {
        tools: demoToolSchemas,
        ...(next === undefined ? {} : { memory: next }),
      })
      if (!outcome.ok) throw outcome.error
      // The sending part loads at the first interaction: the first message makes the session.
      session ??= createSession({ threads, threadId, model, counter, memory: readMemory, tools: demoTools(memory, ASSISTANT_MEMORY_ID) })
      for await (const event of session.send(`Message ${turn}`, { policy })) if (event.type === 'error') throw event.error
      const sent = model.requests.at(-1)?.projection as ProjectionResult
      expect(memoryOf(sent), `turn ${turn}`).toBe(memoryOf(outcome.result))
      expect(sent.messages.slice(0, -1), `turn ${turn}`).toEqual(outcome.result.messages)
      if (!memoryOf(sent).includes(`note_${turn}`)) held++
    }
    // The hold applied: a meter rendering the memory afresh would have shown another memory than the one sent.
    expect(held).toBe(4)
  })
})
