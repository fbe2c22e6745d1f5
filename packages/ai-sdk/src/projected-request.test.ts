import { createTokenCounter, definePolicy, extractiveSummarizer, type ProjectionResult, type TokenCounter } from '@threadlens/core'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '@threadlens/core/internal'
import { createMemoryBackedStores } from '@threadlens/store'
import { DefaultChatTransport, modelMessageSchema, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import type { ProjectedCall } from './projected-chat-transport'
import { projectedSendMessagesRequest, type ProjectedRequestBody } from './projected-request'
import { submit } from './testing/chat-requests'

/** `turns` user/assistant pairs (ids `u<turn>`, `a<turn>`) of the given texts, then the user's `last` question. */
function conversation(turns: number, user: (turn: number) => string, assistant: (turn: number) => string, last: string): UIMessage[] {
  const history: UIMessage[] = []
  for (let turn = 0; turn < turns; turn += 1) {
    history.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: user(turn) }] })
    history.push({ id: `a${turn}`, role: 'assistant', parts: [{ type: 'text', text: assistant(turn) }] })
  }
  history.push({ id: 'u-last', role: 'user', parts: [{ type: 'text', text: last }] })
  return history
}

/** Calls `prepare` as DefaultChatTransport does for a submitted message of chat `id`. */
function prepareSubmit(prepare: ReturnType<typeof projectedSendMessagesRequest>, id: string, messages: UIMessage[]) {
  return prepare({
    id,
    messages,
    body: undefined,
    trigger: 'submit-message',
    messageId: undefined,
    requestMetadata: undefined,
    credentials: undefined,
    headers: undefined,
    api: '/api/chat',
  })
}

/** A chat stored in memory, the o200k counter, and a policy of `maxInputTokens` that reserves 50 and says 'Be brief.'. */
async function setUp(chatId: string, maxInputTokens: number) {
  const { threads } = createMemoryBackedStores()
  const persistence = createChatPersistence({ store: threads, chatId })
  const counter = await createTokenCounter('o200k_base')
  const policy = definePolicy({ maxInputTokens, reserveOutputTokens: 50, systemPrompt: 'Be brief.' })
  return { threads, persistence, counter, policy }
}

describe('projectedSendMessagesRequest', () => {
  it('sends a server route the stored projection, not the whole history, and records the call on the reply', async () => {
    const { threads, persistence, counter, policy } = await setUp('server', 300)
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
    const history = conversation(
      10,
      (turn) => `question ${turn} ${'and some more words '.repeat(5)}`,
      (turn) => `answer ${turn}`,
      'and now?',
    )
    const stream = await submit(transport, 'server', history)
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

  it('does not wait for a counter promise: a send before it resolves is projected with the estimate, within the budget by the exact count', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'early' })
    const exact = await createTokenCounter('o200k_base')
    const never = new Promise<TokenCounter>(() => undefined)
    const policy = definePolicy({ maxInputTokens: 400, reserveOutputTokens: 50, systemPrompt: 'Be brief.' })
    const calls: ProjectedCall[] = []
    const prepare = projectedSendMessagesRequest({ persistence, policy, counter: never, onCall: (call) => calls.push(call) })
    const history = conversation(
      12,
      (turn) => `Could you compare fares ${turn} between Oslo and Bergen for ${turn + 2} travellers?`,
      (turn) => `Fares for ${turn + 2}: NOK ${1200 + turn * 37} each, or a family ticket.`,
      'Which is cheapest?',
    )
    await prepareSubmit(prepare, 'early', history)
    const projection = calls[0]?.projection as ProjectionResult
    expect(projection.meta.counter.id).toBe('o200k_base~estimate')
    expect(projection.meta.tokens.estimated).toBe(true)
    expect(projection.meta.includedSeqs.length).toBeGreaterThan(2)
    expect(projection.meta.includedSeqs.length).toBeLessThan(history.length)
    // What the exact encoding makes of the very messages sent fits the budget.
    let exactTotal = REPLY_PRIMING_TOKENS
    for (const message of projection.messages)
      exactTotal += MESSAGE_OVERHEAD_TOKENS + exact.count(typeof message.content === 'string' ? message.content : '')
    expect(exactTotal).toBeLessThanOrEqual(policy.maxInputTokens - policy.reserveOutputTokens)
  })

  it('with a summarizer, summarizes in the browser what no longer fits, and sends the route the summary with the recent turns', async () => {
    const { threads, persistence, counter, policy } = await setUp('summarized', 500)
    const calls: ProjectedCall[] = []
    const prepare = projectedSendMessagesRequest({
      persistence,
      policy,
      counter,
      summarizer: extractiveSummarizer(),
      onCall: (call) => calls.push(call),
    })
    const history = conversation(
      20,
      (turn) => `We should book the ferry to Bergen on day ${turn + 1}; what does it cost for ${turn + 2} people?`,
      (turn) => `I booked it: NOK ${900 + turn * 40} each, leaving at ${8 + (turn % 10)}:00.`,
      'Remind me what we decided.',
    )
    await prepareSubmit(prepare, 'summarized', history)
    const entries = (await threads.load('summarized')).entries
    // Nothing is removed: every message is stored, and a summary entry is appended after them.
    expect(entries.filter((entry) => entry.kind === 'message')).toHaveLength(history.length)
    expect(entries.filter((entry) => entry.kind === 'summary')).toHaveLength(1)
    const projection = calls[0]?.projection as ProjectionResult
    expect(projection.meta.summaryUsed).toBe(true)
    expect(projection.meta.tokens.total).toBeLessThanOrEqual(450)
    expect(calls[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'Remind me what we decided.' })
  })
})
