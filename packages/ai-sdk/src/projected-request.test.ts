import { createTokenCounter, definePolicy } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { DefaultChatTransport, modelMessageSchema, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { projectedSendMessagesRequest, type ProjectedRequestBody } from './projected-request'

describe('projectedSendMessagesRequest', () => {
  it('sends a server route the stored projection, not the whole history, and records the call on the reply', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'server' })
    const counter = await createTokenCounter('o200k_base')
    const policy = definePolicy({ maxInputTokens: 300, reserveOutputTokens: 50, systemPrompt: 'Be brief.' })
    const bodies: ProjectedRequestBody[] = []
    // the app's DefaultChatTransport, with a fetch standing in for the server route
    const transport = new DefaultChatTransport<UIMessage>({
      api: '/api/chat',
      prepareSendMessagesRequest: projectedSendMessagesRequest({ persistence, policy, counter, model: 'gpt-test', provider: 'openai' }),
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)) as ProjectedRequestBody)
        return new Response('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } })
      },
    })
    const history: UIMessage[] = []
    for (let turn = 0; turn < 10; turn += 1) {
      history.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: `question ${turn} ${'and some more words '.repeat(5)}` }] })
      history.push({ id: `a${turn}`, role: 'assistant', parts: [{ type: 'text', text: `answer ${turn}` }] })
    }
    history.push({ id: 'u-last', role: 'user', parts: [{ type: 'text', text: 'and now?' }] })
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'server', messageId: undefined, messages: history, abortSignal: undefined })
    await stream.pipeTo(new WritableStream())
    const body = bodies[0]
    expect(body?.instructions).toEqual([{ role: 'system', content: 'Be brief.' }])
    expect(body?.messages.length).toBeGreaterThan(0)
    expect(body?.messages.length).toBeLessThan(history.length)
    expect(body?.messages.at(-1)).toEqual({ role: 'user', content: 'and now?' })
    expect(body?.callId).toBe(`${body?.responseMessageId}:0`)
    for (const message of body?.messages ?? []) expect(modelMessageSchema.safeParse(message).success).toBe(true)
    expect((await threads.load('server')).entries).toHaveLength(history.length)

    await persistence.save([...history, { id: body?.responseMessageId ?? '', role: 'assistant', parts: [{ type: 'text', text: 'now this' }] }])
    const reply = (await threads.load('server')).entries.at(-1)
    expect(reply?.refs.callId).toBe(`${body?.responseMessageId}:0`)
    // No report from the server (its route did not use projectedMessageMetadata): what the browser knows.
    expect(reply?.meta?.call).toMatchObject({ model: 'gpt-test', provider: 'openai', stopReason: 'unknown', basisSeq: history.length })
    expect(reply?.meta?.call?.startedAt).toBeGreaterThan(0)
    expect(reply?.meta?.call).not.toHaveProperty('durationMs')
  })
})
