import { createMemoryBackedStores } from '@threadlens/store'
import type { UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence, type ChatPersistence } from './chat-persistence'
import { InvalidAdapterOptionsError } from './errors'

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] })
const assistant = (id: string, text: string): UIMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'text', text, state: 'done' }],
})

/** Watches `tab`, keeping the message ids each notification gives; resolves once the watch is set up. */
async function watchIds(tab: ChatPersistence): Promise<{ seen: string[][]; stop: () => void }> {
  const seen: string[][] = []
  const stop = tab.watch((messages) => seen.push(messages.map((message) => message.id)))
  await new Promise((resolve) => setTimeout(resolve, 0))
  return { seen, stop }
}

describe('createChatPersistence', () => {
  it('starts empty, appends finished messages once (idempotent by id) and loads them back', async () => {
    const { threads } = createMemoryBackedStores()
    const chat = createChatPersistence({ store: threads, chatId: 'chat-1' })
    expect(await chat.load()).toEqual([])
    const conversation = [user('u1', 'hi'), assistant('a1', 'hello')]
    expect(await chat.save(conversation)).toEqual({ threadId: 'chat-1', appended: 2, forked: false })
    expect(await chat.save(conversation)).toEqual({ threadId: 'chat-1', appended: 0, forked: false })
    expect((await threads.load('chat-1')).entries).toHaveLength(2)
    const reloaded = createChatPersistence({ store: threads, chatId: 'chat-1' })
    expect(await reloaded.load()).toEqual(conversation)
  })

  it('appends only the new entries of a message that grew, and loads the newest copy', async () => {
    const { threads } = createMemoryBackedStores()
    const chat = createChatPersistence({ store: threads, chatId: 'chat-2' })
    await chat.load()
    const asking: UIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'tool-book', toolCallId: 'c1', state: 'approval-requested', input: { what: 'ferry' }, approval: { id: 'p1' } },
      ],
    }
    await chat.save([user('u1', 'book it'), asking])
    const answered: UIMessage = {
      ...asking,
      parts: [
        { type: 'step-start' },
        { type: 'tool-book', toolCallId: 'c1', state: 'approval-responded', input: { what: 'ferry' }, approval: { id: 'p1', approved: true } },
      ],
    }
    expect((await chat.save([user('u1', 'book it'), answered])).appended).toBe(0)
    const done: UIMessage = {
      ...asking,
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-book',
          toolCallId: 'c1',
          state: 'output-available',
          input: { what: 'ferry' },
          output: 'booked',
          approval: { id: 'p1', approved: true },
        },
        { type: 'step-start' },
        { type: 'text', text: 'Booked.', state: 'done' },
      ],
    }
    expect(await chat.save([user('u1', 'book it'), done])).toEqual({ threadId: 'chat-2', appended: 2, forked: false })
    const kinds = (await threads.load('chat-2')).entries.map((entry) => entry.kind)
    expect(kinds).toEqual(['message', 'tool_call', 'tool_result', 'message'])
    expect(await createChatPersistence({ store: threads, chatId: 'chat-2' }).load()).toEqual([user('u1', 'book it'), done])
  })

  it('stores regenerate and edit as branches; the old branch is never rewritten', async () => {
    const { threads } = createMemoryBackedStores()
    const chat = createChatPersistence({ store: threads, chatId: 'chat-3' })
    await chat.load()
    await chat.save([user('u1', 'hi'), assistant('a1', 'hello'), user('u2', 'weather?'), assistant('a2', 'sunny')])
    const before = (await threads.load('chat-3')).entries

    // regenerate: useChat drops a2 and streams a new answer
    const regenerated = await chat.save([user('u1', 'hi'), assistant('a1', 'hello'), user('u2', 'weather?'), assistant('a3', 'rainy')])
    expect(regenerated).toEqual({ threadId: 'chat-3:v1', appended: 1, forked: true })
    expect((await threads.load('chat-3')).entries).toEqual(before)
    expect((await threads.get('chat-3:v1'))?.parent).toEqual({ threadId: 'chat-3', atSeq: 2 })

    // edit the first user message: a branch from before it
    const edited = await chat.save([user('u1', 'hey there'), assistant('a4', 'hi!')])
    expect(edited).toEqual({ threadId: 'chat-3:v2', appended: 2, forked: true })
    expect(await createChatPersistence({ store: threads, chatId: 'chat-3' }).load()).toEqual([user('u1', 'hey there'), assistant('a4', 'hi!')])
    expect((await threads.load('chat-3:v1')).entries.map((entry) => entry.payload)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: 'rainy' },
    ])
  })

  it('appends what another tab never saw instead of branching over it', async () => {
    const { threads } = createMemoryBackedStores()
    const tabA = createChatPersistence({ store: threads, chatId: 'chat-4' })
    const tabB = createChatPersistence({ store: threads, chatId: 'chat-4' })
    await Promise.all([tabA.load(), tabB.load()])
    await tabA.save([user('a-u1', 'from A')])
    const result = await tabB.save([user('b-u1', 'from B')])
    expect(result).toEqual({ threadId: 'chat-4', appended: 1, forked: false })
    expect((await tabA.load()).map((message) => message.id)).toEqual(['a-u1', 'b-u1'])
  })

  it('tells watchers about appends from anywhere', async () => {
    const { threads } = createMemoryBackedStores()
    const tabA = createChatPersistence({ store: threads, chatId: 'chat-5' })
    const tabB = createChatPersistence({ store: threads, chatId: 'chat-5' })
    await tabA.load()
    const { seen, stop } = await watchIds(tabB)
    await tabA.save([user('u1', 'hi')])
    await expect.poll(() => seen.at(-1)).toEqual(['u1'])
    stop()
  })

  it('tells watchers about a rebase (a sync moved stored entries)', async () => {
    const { threads } = createMemoryBackedStores()
    const tabA = createChatPersistence({ store: threads, chatId: 'chat-7' })
    await tabA.load()
    await tabA.save([user('u1', 'hi'), user('u2', 'there')])
    const { seen, stop } = await watchIds(tabA)
    const entries = (await threads.load('chat-7')).entries
    const second = entries.find((entry) => entry.kind === 'message' && entry.payload.content === 'there')
    // The stream put the second message first: what was before it moves after it.
    expect((await threads.placeSynced('chat-7', 0, [second as NonNullable<typeof second>])).moved).toBeGreaterThan(0)
    await expect.poll(() => seen.at(-1)).toEqual(['u2', 'u1'])
    stop()
  })

  it('moves watchers of other tabs onto a new branch', async () => {
    const { threads } = createMemoryBackedStores()
    const tabA = createChatPersistence({ store: threads, chatId: 'chat-6' })
    const tabB = createChatPersistence({ store: threads, chatId: 'chat-6' })
    await tabA.load()
    await tabA.save([user('u1', 'hi'), assistant('a1', 'hello')])
    const { seen, stop } = await watchIds(tabB)
    await tabA.save([user('u1', 'hi'), assistant('a2', 'hello again')])
    await expect.poll(() => seen.at(-1), { timeout: 2000 }).toEqual(['u1', 'a2'])
    expect(tabB.currentThreadId()).toBe('chat-6:v1')
    // and keeps following the branch: appends to it reach the watcher
    await tabA.save([user('u1', 'hi'), assistant('a2', 'hello again'), user('u2', 'more')])
    await expect.poll(() => seen.at(-1), { timeout: 2000 }).toEqual(['u1', 'a2', 'u2'])
    stop()
    tabA.close()
    tabB.close()
  })

  it('refuses a chat id the store could not use', () => {
    const { threads } = createMemoryBackedStores()
    expect(() => createChatPersistence({ store: threads, chatId: 'a b' })).toThrow(InvalidAdapterOptionsError)
  })
})
