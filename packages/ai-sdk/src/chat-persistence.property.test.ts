import fc from 'fast-check'
import { createTokenCounter, definePolicy, type Entry } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { modelMessageSchema, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { projectModelMessagesWithFiles } from './model-messages'
import { uiConversationArbitrary } from './testing/random-ui-messages'

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
        const reply = (): UIMessage => ({
          id: id('a'),
          role: 'assistant',
          parts: [{ type: 'step-start' }, { type: 'text', text: `answer ${nextId}`, state: 'done' }],
        })
        const seen = new Map<string, Entry[]>()
        for (const step of operations) {
          if (step.kind === 'send') list = [...list, { id: id('u'), role: 'user', parts: [{ type: 'text', text: step.text }] }, reply()]
          if (step.kind === 'regenerate' && list.at(-1)?.role === 'assistant') list = [...list.slice(0, -1), reply()]
          if (step.kind === 'edit') {
            const users = list.flatMap((message, index) => (message.role === 'user' ? [index] : []))
            const at = users[step.pick % Math.max(1, users.length)]
            const edited = at === undefined ? undefined : list[at]
            if (at !== undefined && edited !== undefined)
              list = [...list.slice(0, at), { ...edited, parts: [{ type: 'text', text: `${step.text}!` }] }, reply()]
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

  it(`with an attachment store, every conversation loads back exactly, re-saving appends nothing, no file's bytes are in the entries, and the projection sends them (100 random conversations, seed ${SEED})`, async () => {
    const counter = await createTokenCounter('heuristic')
    await fc.assert(
      fc.asyncProperty(uiConversationArbitrary, async (messages) => {
        const stores = createMemoryBackedStores()
        const chat = createChatPersistence({ store: stores.threads, chatId: 'files', attachments: stores.attachments })
        await chat.save(messages)
        const reloaded = createChatPersistence({ store: stores.threads, chatId: 'files', attachments: stores.attachments })
        expect(await reloaded.load()).toEqual(messages.filter((message) => message.parts.length > 0))
        expect((await reloaded.save(messages)).appended).toBe(0)
        const thread = await stores.threads.load('files')
        const files = messages.flatMap((message) =>
          message.parts.flatMap((part) => (part.type === 'file' && part.url.includes(';base64,') ? [part.url] : [])),
        )
        const entriesJson = JSON.stringify(thread.entries)
        for (const url of files) expect(entriesJson).not.toContain(url)
        const { messages: sent } = await projectModelMessagesWithFiles(
          { thread, policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 100 }), counter },
          stores.attachments,
        )
        for (const message of sent) expect(modelMessageSchema.safeParse(message).success).toBe(true)
        const sentFiles = sent.flatMap((message) =>
          message.role === 'user' && Array.isArray(message.content) ? message.content.filter((part) => part.type === 'file') : [],
        )
        // every user file but blob: URLs (they live only in the page that made them)
        expect(sentFiles).toHaveLength(
          messages.flatMap((message) =>
            message.role === 'user' ? message.parts.filter((part) => part.type === 'file' && !part.url.startsWith('blob:')) : [],
          ).length,
        )
      }),
      { numRuns: 100, seed: SEED },
    )
  })
})
