import fc from 'fast-check'
import type { Entry } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import type { UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'

// A fixed seed checks the same edit histories on every run; fast-check prints the counterexample.
const SEED = 20261124
const RUNS = 150

type Operation = { kind: 'send'; text: string } | { kind: 'regenerate' } | { kind: 'edit'; pick: number; text: string } | { kind: 'resave' }

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('send' as const), text: fc.string({ maxLength: 20 }) }), weight: 4 },
  { arbitrary: fc.constant({ kind: 'regenerate' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), text: fc.string({ maxLength: 20 }) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'resave' as const }), weight: 1 },
)

describe('useChat histories on the append-only thread', () => {
  it(`every save loads back exactly, re-saving appends nothing, and no stored entry is ever changed (${RUNS} random edit histories, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        const { threads } = createMemoryBackedStores()
        const chat = createChatPersistence({ store: threads, chatId: 'chat' })
        let list: UIMessage[] = await chat.load()
        let nextId = 0
        const id = (prefix: string) => `${prefix}${(nextId += 1)}`
        const reply = (): UIMessage => ({ id: id('a'), role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: `answer ${nextId}`, state: 'done' }] })
        const seen = new Map<string, Entry[]>()
        for (const step of operations) {
          if (step.kind === 'send') list = [...list, { id: id('u'), role: 'user', parts: [{ type: 'text', text: step.text }] }, reply()]
          if (step.kind === 'regenerate' && list.at(-1)?.role === 'assistant') list = [...list.slice(0, -1), reply()]
          if (step.kind === 'edit') {
            const users = list.flatMap((message, index) => (message.role === 'user' ? [index] : []))
            const at = users[step.pick % Math.max(1, users.length)]
            const edited = at === undefined ? undefined : list[at]
            if (at !== undefined && edited !== undefined) list = [...list.slice(0, at), { ...edited, parts: [{ type: 'text', text: `${step.text}!` }] }, reply()]
          }
          await chat.save(list)
          expect(await createChatPersistence({ store: threads, chatId: 'chat' }).load()).toEqual(list)
          expect((await chat.save(list)).appended).toBe(0)
          for (const record of await threads.list()) {
            const entries = [...(await threads.load(record.id)).entries]
            expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index))
            const before = seen.get(record.id) ?? []
            expect(entries.slice(0, before.length)).toEqual(before)
            seen.set(record.id, entries)
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })
})
