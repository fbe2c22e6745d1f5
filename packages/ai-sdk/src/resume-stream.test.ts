import { createTokenCounter, definePolicy } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { chatRoute } from '../examples/server-route'
import { createChatPersistence } from './chat-persistence'
import { projectedSendMessagesRequest } from './projected-request'
import { scriptedChatModel } from './testing/scripted-chat-model'

// The AI SDK's resumable-stream pattern (`useChat({ resume: true })`): the POST route keeps the
// reply's stream while it runs, a GET route (`<api>/<chatId>/stream`) hands it to a page that
// reloaded mid-answer, and the reloaded page saves the reply.

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

/** The server: the example route, with each reply's stream kept for a GET resume (as `resumable-stream` keeps it in Redis). */
function resumableServer() {
  const post = chatRoute(scriptedChatModel({ chunkDelayInMs: 5 }))
  const active = new Map<string, Uint8Array[]>()
  return async (url: string, init: RequestInit | undefined): Promise<Response> => {
    const resume = /\/api\/chat\/([^/]+)\/stream$/.exec(url)
    if (resume !== null) {
      const chunks = active.get(decodeURIComponent(resume[1] as string))
      if (chunks === undefined) return new Response(null, { status: 204 })
      return new Response(new ReadableStream({ start: (controller) => (chunks.forEach((chunk) => controller.enqueue(chunk)), controller.close()) }), { headers: { 'content-type': 'text/event-stream' } })
    }
    const request = new Request(url, init)
    const { id } = (await request.clone().json()) as { id: string }
    const response = await post(request)
    const [toClient, kept] = (response.body as ReadableStream<Uint8Array>).tee()
    const chunks: Uint8Array[] = []
    active.set(id, chunks)
    await (async () => {
      for await (const chunk of kept) chunks.push(chunk)
    })()
    return new Response(toClient, { headers: response.headers })
  }
}

function tab(store: ReturnType<typeof createMemoryBackedStores>['threads'], storage: Storage, server: ReturnType<typeof resumableServer>, counter: Awaited<ReturnType<typeof createTokenCounter>>) {
  const persistence = createChatPersistence({ store, chatId: 'resumed', pendingCalls: storage })
  const transport = new DefaultChatTransport<UIMessage>({
    api: 'http://app.test/api/chat',
    prepareSendMessagesRequest: projectedSendMessagesRequest({ persistence, policy: definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 500 }), counter }),
    fetch: (url, init) => server(String(url), init),
  })
  return { persistence, transport }
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
    const abandoned = await first.transport.sendMessages({ trigger: 'submit-message', chatId: 'resumed', messageId: undefined, messages: [ask], abortSignal: undefined })
    await abandoned.cancel()

    // the reloaded page: a new chat object over the same store and the same tab's sessionStorage
    const second = tab(threads, storage, server, counter)
    const loaded = await second.persistence.load()
    expect(loaded).toEqual([ask])
    const resumed = await second.transport.reconnectToStream({ chatId: 'resumed' })
    expect(resumed).not.toBeNull()
    const reply = await read(resumed as ReadableStream<UIMessageChunk>)
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
})
