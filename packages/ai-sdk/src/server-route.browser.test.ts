import { Chat } from '@ai-sdk/react'
import { createTokenCounter, definePolicy } from '@threadlens/core'
import { threadCalls } from '@threadlens/core/calls'
import { openThreadlensStores } from '@threadlens/store'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { routeModel, routeModelTotals } from '../examples/route-model'
import { chatRoute } from '../examples/server-route'
import { createChatPersistence } from './chat-persistence'
import { projectedSendMessagesRequest } from './projected-request'

// In Chromium, with IndexedDB: `useChat`'s own Chat class sends through DefaultChatTransport to the
// README's route (run in the page with the AI SDK's mock model: one tool step, then the answer),
// and its onFinish saves the reply; the call's record is completed from the route's report.

describe('useChat over a server route, in a real browser', () => {
  it('stores the reply with one call record holding the route’s usage, stop reason, timings and both steps', async () => {
    const stores = await openThreadlensStores({ name: `server-route-${crypto.randomUUID()}` })
    expect(stores.persistent).toBe(true)
    const persistence = createChatPersistence({ store: stores.threads, chatId: 'support' })
    const route = chatRoute(routeModel())
    const saved: Promise<unknown>[] = []
    const chat = new Chat<UIMessage>({
      id: persistence.chatId,
      messages: await persistence.load(),
      transport: new DefaultChatTransport({
        api: '/api/chat',
        prepareSendMessagesRequest: projectedSendMessagesRequest({
          persistence,
          policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 2000, reserveOutputTokens: 200 }),
          counter: await createTokenCounter('heuristic'),
        }),
        fetch: (url, init) => route(new Request(new URL(String(url), location.href), init)),
      }),
      onFinish: ({ messages }) => void saved.push(persistence.save(messages)),
    })
    await chat.sendMessage({ text: 'Where is order 7?' })
    await Promise.all(saved)
    expect(chat.status).toBe('ready')
    const thread = await stores.threads.load('support')
    expect(thread.entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
    const calls = threadCalls(thread)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.record?.stored).toMatchObject({
      ...routeModelTotals,
      steps: [
        { stopReason: 'tool-calls', inputTokens: 90, outputTokens: 9, cachedInputTokens: 30 },
        { stopReason: 'stop', inputTokens: 120, outputTokens: 6, cachedInputTokens: 30 },
      ],
    })
    expect(calls[0]?.record?.stored?.durationMs).toBeGreaterThanOrEqual(0)
    persistence.close()
    stores.db?.close()
  })
})
