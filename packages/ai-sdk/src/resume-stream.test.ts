import { createTokenCounter } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { chatRoute, inMemoryReplies, replyRoute } from '../examples/server-route'
import { createChatPersistence } from './chat-persistence'
import { scriptedChatModel } from './testing/scripted-chat-model'
import { routeTransport, submit } from './testing/chat-requests'

// The AI SDK's resumable-stream pattern (`useChat({ resume: true })`) with the README's route: the
// POST keeps the reply's stream while it runs, the GET (`<api>/<chatId>/stream`) hands it to a page
// that reloaded mid-answer, and the reloaded page saves the reply; DELETE stops it.

/** A tab's sessionStorage: it survives a reload of the tab, and only that. */
function tabStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  }
}

/** The server: the example route's POST, and its GET and DELETE at `<api>/<chatId>/stream` over the same kept replies. */
function resumableServer(model = scriptedChatModel({ chunkDelayInMs: 20 })) {
  const replies = inMemoryReplies()
  const post = chatRoute(model, replies)
  const stream = replyRoute(replies)
  return async (url: string, init: RequestInit | undefined): Promise<Response> => {
    const request = new Request(url, init)
    if (!/\/api\/chat\/[^/]+\/stream$/.test(url)) return post(request)
    return request.method === 'DELETE' ? stream.DELETE(request) : stream.GET(request)
  }
}

function tab(
  store: ReturnType<typeof createMemoryBackedStores>['threads'],
  storage: Storage,
  server: ReturnType<typeof resumableServer>,
  counter: Awaited<ReturnType<typeof createTokenCounter>>,
) {
  const persistence = createChatPersistence({ store, chatId: 'resumed', pendingCalls: storage })
  return { persistence, transport: routeTransport(persistence, counter, 'http://app.test/api/chat', server) }
}

async function read(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let reply: UIMessage | undefined
  for await (const message of readUIMessageStream<UIMessage>({ stream })) reply = message
  if (reply === undefined) throw new Error('no reply')
  return reply
}

describe('resuming a reply after a reload (server route)', () => {
  it('the reloaded page saves the resumed reply once, with the call record the first page wrote when it sent', async () => {
    const counter = await createTokenCounter('o200k_base')
    const { threads } = createMemoryBackedStores()
    const storage = tabStorage()
    const server = resumableServer()
    const ask: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'tell me something' }] }

    // the first page sends, then reloads before the answer is read (its stream is dropped unread)
    const first = tab(threads, storage, server, counter)
    await first.persistence.load()
    const abandoned = await submit(first.transport, 'resumed', [ask])
    await abandoned.cancel()

    // the reloaded page: a new chat object over the same store and the same tab's sessionStorage
    const second = tab(threads, storage, server, counter)
    const loaded = await second.persistence.load()
    expect(loaded).toEqual([ask])
    const resumed = await second.transport.reconnectToStream({ chatId: 'resumed' })
    expect(resumed).not.toBeNull()
    const reply = await read(resumed as ReadableStream<UIMessageChunk>)
    expect(reply.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'You said "tell me something". I was sent 2 messages.' }))
    await second.persistence.save([...loaded, reply])
    await second.persistence.save([...loaded, reply]) // useChat's onFinish may save again: idempotent

    const entries = (await threads.load('resumed')).entries
    expect(entries.map((entry) => entry.kind === 'message' && entry.payload.role)).toEqual(['user', 'assistant'])
    expect(entries[1]?.meta?.call).toMatchObject({ model: 'scripted-chat', stopReason: 'stop', counter: 'o200k_base' })
    expect(entries[1]?.meta?.call?.inputTokens).toBeGreaterThan(0)
    expect(await second.persistence.load()).toEqual([ask, JSON.parse(JSON.stringify(reply))])
    // the pending record is gone once its reply is stored
    expect(storage.length).toBe(0)
  })

  it('resumes nothing once the reply has ended (204), and a reader that left early does not stop it', async () => {
    const counter = await createTokenCounter('o200k_base')
    const { threads } = createMemoryBackedStores()
    const server = resumableServer()
    const page = tab(threads, tabStorage(), server, counter)
    await page.persistence.load()
    const ask: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }
    const leaving = await submit(page.transport, 'resumed', [ask])
    await leaving.cancel()
    // a second reader joins while it runs and reads it to the end
    const joined = await read((await page.transport.reconnectToStream({ chatId: 'resumed' })) as ReadableStream<UIMessageChunk>)
    expect(joined.parts.at(-1)).toMatchObject({ type: 'text', text: 'You said "hello". I was sent 2 messages.', state: 'done' })
    expect(await page.transport.reconnectToStream({ chatId: 'resumed' })).toBeNull()
  })

  it('DELETE stops the running reply: the model call is cancelled, its reader sees the abort, and nothing is left to resume', async () => {
    const counter = await createTokenCounter('o200k_base')
    const { threads } = createMemoryBackedStores()
    const server = resumableServer(scriptedChatModel({ chunkDelayInMs: 40 }))
    const page = tab(threads, tabStorage(), server, counter)
    await page.persistence.load()
    const ask: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'tell me a long story about the sea' }] }
    const stream = await submit(page.transport, 'resumed', [ask])
    const chunks: UIMessageChunk[] = []
    for await (const chunk of stream) {
      chunks.push(chunk)
      if (chunk.type === 'text-delta' && chunks.filter((seen) => seen.type === 'text-delta').length === 2) {
        const stopped = await server('http://app.test/api/chat/resumed/stream', { method: 'DELETE' })
        expect(stopped.status).toBe(204)
      }
    }
    const deltas = chunks.filter((chunk) => chunk.type === 'text-delta')
    expect(chunks.map((chunk) => chunk.type)).toContain('abort')
    // the whole reply is 14 words; the stop came after the second
    expect(deltas.length).toBeGreaterThanOrEqual(2)
    expect(deltas.length).toBeLessThan(14)
    expect(chunks.some((chunk) => chunk.type === 'finish' && chunk.finishReason === 'stop')).toBe(false)
    expect(await page.transport.reconnectToStream({ chatId: 'resumed' })).toBeNull()
  })
})
