import { createTokenCounter, definePolicy } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  DefaultChatTransport,
  jsonSchema,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  modelMessageSchema,
  readUIMessageStream,
  simulateReadableStream,
  streamText,
  tool,
  type ModelMessage,
  type ToolSet,
  type UIMessage,
} from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { Chat } from '@ai-sdk/react'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { createProjectedChatTransport, type ProjectedCall } from './projected-chat-transport'
import { projectedSendMessagesRequest } from './projected-request'
import { readProjectedRequest } from './read-projected-request'
import { scriptedChatModel } from './testing/scripted-chat-model'
import { submit } from './testing/chat-requests'

const counter = await createTokenCounter('o200k_base')

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt']

/** A model that calls `toolName` when the user asks, then says what the tool returned. */
function toolCallingModel(toolName: string, input: Record<string, unknown>, supportedUrls: Record<string, RegExp[]> = {}): MockLanguageModelV4 {
  const finish = (unified: 'stop' | 'tool-calls') => ({
    type: 'finish' as const,
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    finishReason: { unified, raw: unified },
  })
  return new MockLanguageModelV4({
    supportedUrls,
    doStream: async ({ prompt }: { prompt: Prompt }) => {
      const last = prompt.at(-1)
      if (last?.role === 'user') {
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start' as const, warnings: [] },
              { type: 'tool-call' as const, toolCallId: `call-${prompt.length}`, toolName, input: JSON.stringify(input) },
              finish('tool-calls'),
            ],
          }),
        }
      }
      const result = last?.role === 'tool' ? last.content.find((part) => part.type === 'tool-result') : undefined
      const reply = `tool said ${JSON.stringify(result?.type === 'tool-result' ? result.output : null)}`
      return {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start' as const, warnings: [] },
            { type: 'text-start' as const, id: 't' },
            { type: 'text-delta' as const, id: 't', delta: reply },
            { type: 'text-end' as const, id: 't' },
            finish('stop'),
          ],
        }),
      }
    },
  })
}

async function send(transport: ReturnType<typeof createProjectedChatTransport>, messages: UIMessage[]): Promise<UIMessage[]> {
  const stream = await submit(transport, 'c', messages)
  const last = messages.at(-1)
  let reply: UIMessage | undefined
  for await (const message of readUIMessageStream({ stream, ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}) }))
    reply = message
  if (reply === undefined) throw new Error('no reply')
  return last?.role === 'assistant' ? [...messages.slice(0, -1), reply] : [...messages, reply]
}

function setup(chatId: string, model: MockLanguageModelV4, tools?: ToolSet, unresolvedToolCalls: 'drop' | 'interrupt' = 'interrupt') {
  const { threads } = createMemoryBackedStores()
  const persistence = createChatPersistence({ store: threads, chatId })
  const calls: ProjectedCall[] = []
  const policy = definePolicy({ systemPrompt: 'Be brief.', unresolvedToolCalls })
  const transport = createProjectedChatTransport({
    persistence,
    model,
    policy,
    counter,
    ...(tools === undefined ? {} : { tools }),
    onCall: (call) => calls.push(call),
    recordWaitMs: 1000,
  })
  const reload = async () => createChatPersistence({ store: threads, chatId }).load()
  return { threads, persistence, transport, calls, reload }
}

function expectValid(messages: readonly ModelMessage[]): void {
  for (const message of messages) expect(modelMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true)
}

/** Every call sent valid model messages, the chat reloads as the app holds it, and its thread holds the tool call once, with `result`. */
async function expectKept(chat: ReturnType<typeof setup>, chatId: string, messages: UIMessage[], result: unknown): Promise<void> {
  for (const call of chat.calls) expectValid([...(call.instructions ?? []), ...call.messages])
  await expect.poll(async () => JSON.stringify(await chat.reload())).toBe(JSON.stringify(messages))
  const entries = (await chat.threads.load(chatId)).entries
  expect(entries.filter((entry) => entry.kind === 'tool_call')).toHaveLength(1)
  expect(entries.filter((entry) => entry.kind === 'tool_result').map((entry) => entry.kind === 'tool_result' && entry.payload.result)).toEqual([
    result,
  ])
}

/** What useChat's `addToolApprovalResponse` does to the last message. */
function answerApproval(messages: UIMessage[], approved: boolean, reason?: string): UIMessage[] {
  const last = messages.at(-1) as UIMessage
  const parts = last.parts.map((part) =>
    'state' in part && part.state === 'approval-requested' && 'approval' in part
      ? ({
          ...part,
          state: 'approval-responded',
          approval: { ...part.approval, approved, ...(reason === undefined ? {} : { reason }) },
        } as unknown as typeof part)
      : part,
  )
  return [...messages.slice(0, -1), { ...last, parts }]
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] })

/** A 1×1 PNG, base64. */
const dot = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const deleteFile = tool({
  description: 'Deletes a file',
  inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  needsApproval: true,
  execute: async ({ path }) => ({ deleted: path }),
})

describe('tool approval through the projected transport', () => {
  it.each(['interrupt', 'drop'] as const)(
    'an approved call runs, is stored once with its result, and the model hears the result (unresolvedToolCalls: %s)',
    async (unresolved) => {
      const chat = setup('approve', toolCallingModel('deleteFile', { path: 'a.txt' }), { deleteFile }, unresolved)
      const { transport } = chat
      let messages = await send(transport, [user('u1', 'delete a.txt')])
      expect(messages[1]?.parts.find((part) => part.type === 'tool-deleteFile')).toMatchObject({
        state: 'approval-requested',
        input: { path: 'a.txt' },
      })
      messages = answerApproval(messages, true)
      messages = await send(transport, messages)
      expect(messages[1]?.parts.find((part) => part.type === 'tool-deleteFile')).toMatchObject({
        state: 'output-available',
        output: { deleted: 'a.txt' },
      })
      expect(messages[1]?.parts.filter((part) => part.type === 'text').map((part) => part.type === 'text' && part.text)).toEqual([
        'tool said {"type":"json","value":{"deleted":"a.txt"}}',
      ])
      await expectKept(chat, 'approve', messages, { deleted: 'a.txt' })
    },
  )
})

describe('tool approval: denial', () => {
  it('a denied call does not run; the model is told it was denied; the denial is stored and reloads', async () => {
    let ran = false
    const guarded = tool({ ...deleteFile, execute: async ({ path }: { path: string }) => ((ran = true), { deleted: path }) })
    const { transport, calls, reload, threads } = setup('deny', toolCallingModel('deleteFile', { path: 'b.txt' }), { deleteFile: guarded })
    let messages = await send(transport, [user('u1', 'delete b.txt')])
    messages = await send(transport, answerApproval(messages, false, 'keep it'))
    expect(ran).toBe(false)
    expect(messages[1]?.parts.find((part) => part.type === 'tool-deleteFile')).toMatchObject({
      state: 'output-denied',
      approval: { approved: false, reason: 'keep it' },
    })
    // the second call ended with the SDK's denial: the approval response and an execution-denied result
    expect(calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: expect.any(String), approved: false, reason: 'keep it' },
        { type: 'tool-result', toolCallId: 'call-2', toolName: 'deleteFile', output: { type: 'execution-denied', reason: 'keep it' } },
      ],
    })
    expect(messages[1]?.parts.filter((part) => part.type === 'text').map((part) => part.type === 'text' && part.text)).toEqual([
      expect.stringContaining('execution-denied'),
    ])
    for (const call of calls) expectValid([...(call.instructions ?? []), ...call.messages])
    await expect.poll(async () => JSON.stringify(await reload())).toBe(JSON.stringify(messages))
    const results = (await threads.load('deny')).entries.filter((entry) => entry.kind === 'tool_result')
    expect(results.map((entry) => entry.kind === 'tool_result' && entry.payload.error)).toEqual(['The user denied this tool call: keep it'])

    // the next turn: the denial goes to the model as the error the thread holds (error-text, as the SDK sends an output-denied part)
    messages = await send(transport, [...messages, user('u2', 'ok')])
    const denied = calls[2]?.messages.find((message) => message.role === 'tool')
    expect(denied).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-2',
          toolName: 'deleteFile',
          output: { type: 'error-text', value: 'The user denied this tool call: keep it' },
        },
      ],
    })
  })
})

describe('tool approval through a server route', () => {
  it('the answer reaches the route last, readProjectedRequest accepts it, and the route runs the approved call', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'route-approval' })
    const model = toolCallingModel('deleteFile', { path: 'c.txt' })
    const route = async (request: Request): Promise<Response> => {
      const projected = readProjectedRequest(await request.json())
      return streamText({ model, tools: { deleteFile }, ...projected.input }).toUIMessageStreamResponse({
        generateMessageId: () => projected.responseMessageId,
      })
    }
    const transport = new DefaultChatTransport<UIMessage>({
      api: 'http://app.test/api/chat',
      prepareSendMessagesRequest: projectedSendMessagesRequest({ persistence, policy: definePolicy({}), counter }),
      fetch: (url, init) => route(new Request(url, init)),
    })
    const turn = async (history: UIMessage[]): Promise<UIMessage[]> => {
      const stream = await submit(transport, 'route-approval', history)
      const last = history.at(-1)
      let reply: UIMessage | undefined
      for await (const message of readUIMessageStream<UIMessage>({
        stream,
        ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
      }))
        reply = message
      if (reply === undefined) throw new Error('no reply')
      const all = last?.role === 'assistant' ? [...history.slice(0, -1), reply] : [...history, reply]
      await persistence.save(all)
      return all
    }
    let messages = await turn([user('u1', 'delete c.txt')])
    expect(messages[1]?.parts.find((part) => part.type === 'tool-deleteFile')).toMatchObject({ state: 'approval-requested' })
    messages = await turn(answerApproval(messages, true))
    expect(messages[1]?.parts.find((part) => part.type === 'tool-deleteFile')).toMatchObject({
      state: 'output-available',
      output: { deleted: 'c.txt' },
    })
    expect(JSON.stringify(await createChatPersistence({ store: threads, chatId: 'route-approval' }).load())).toBe(JSON.stringify(messages))
  })
})

describe('tool errors through the projected transport', () => {
  it('a tool that throws is stored as output-error, reloads, and the model hears the error', async () => {
    const failing = tool({
      description: 'Reads a file',
      inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      execute: async ({ path }): Promise<{ text: string }> => {
        throw new Error(`no such file: ${path}`)
      },
    })
    const { transport, calls, reload, threads } = setup('errors', toolCallingModel('readFile', { path: 'x.txt' }), { readFile: failing })
    let messages = await send(transport, [user('u1', 'read x.txt')])
    expect(messages[1]?.parts.find((part) => part.type === 'tool-readFile')).toMatchObject({
      state: 'output-error',
      errorText: 'Error: no such file: x.txt',
    })
    messages = await send(transport, messages) // sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls
    expect(calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call-2', toolName: 'readFile', output: { type: 'error-text', value: 'Error: no such file: x.txt' } },
      ],
    })
    for (const call of calls) expectValid([...(call.instructions ?? []), ...call.messages])
    await expect.poll(async () => JSON.stringify(await reload())).toBe(JSON.stringify(messages))
    const results = (await threads.load('errors')).entries.filter((entry) => entry.kind === 'tool_result')
    expect(results.map((entry) => entry.kind === 'tool_result' && entry.payload.error)).toEqual(['Error: no such file: x.txt'])
  })
})

// A client-side tool: no execute, the app answers with addToolOutput.
const clientTools: ToolSet = {
  askLocation: {
    description: 'Asks the user where they are',
    inputSchema: jsonSchema<{ why: string }>({ type: 'object', properties: { why: { type: 'string' } } }),
  },
}

describe('client-side tools (no execute) through the projected transport', () => {
  it("the app's addToolOutput result is stored, reloads, and the automatic resend sends it to the model", async () => {
    const chat = setup('client-tool', toolCallingModel('askLocation', { why: 'weather' }), clientTools)
    const { transport, calls, threads } = chat
    let messages = await send(transport, [user('u1', 'weather here?')])
    const pending = messages[1]?.parts.find((part) => part.type === 'tool-askLocation')
    expect(pending).toMatchObject({ state: 'input-available', input: { why: 'weather' } })
    // saved while the call waits: the call is stored, unanswered
    await expect.poll(async () => (await threads.load('client-tool')).entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call'])
    // what useChat's addToolOutput does, then lastAssistantMessageIsCompleteWithToolCalls resends
    const last = messages[1] as UIMessage
    messages = [
      messages[0] as UIMessage,
      {
        ...last,
        parts: last.parts.map((part) =>
          part.type === 'tool-askLocation' ? ({ ...part, state: 'output-available', output: { city: 'Oslo' } } as typeof part) : part,
        ),
      },
    ]
    messages = await send(transport, messages)
    expect(calls[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call-2', toolName: 'askLocation', output: { type: 'text', value: '{"city":"Oslo"}' } }],
    })
    expect(messages[1]?.parts.filter((part) => part.type === 'text').map((part) => part.type === 'text' && part.text)).toEqual([
      'tool said {"type":"text","value":"{\\"city\\":\\"Oslo\\"}"}',
    ])
    await expectKept(chat, 'client-tool', messages, { city: 'Oslo' })
  })
})

describe('file and image parts through the projected transport', () => {
  const png = `data:image/png;base64,${dot}`
  const ask: UIMessage = {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: 'What is in these?' },
      { type: 'file', mediaType: 'image/png', url: png, filename: 'dot.png' },
      { type: 'file', mediaType: 'application/pdf', url: 'https://files.example.com/report.pdf', filename: 'report.pdf' },
      { type: 'text', text: 'Be short.' },
    ],
  }

  it('are stored as content parts, counted, sent as the SDK sends them, and reload unchanged', async () => {
    // a model that fetches https: files itself (as OpenAI and Anthropic do); streamText downloads the rest
    const model = toolCallingModel('none', {}, { 'application/pdf': [/^https:/] })
    const files = setup('files', model)
    const messages = await send(files.transport, [ask])
    // the stored entry holds the text and both files as core parts, so they are counted and projected
    const [entry] = (await files.threads.load('files')).entries
    expect(entry?.kind === 'message' && entry.payload.parts).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image', source: { type: 'url', url: png } },
      { type: 'file', source: { type: 'url', url: 'https://files.example.com/report.pdf' }, filename: 'report.pdf' },
      { type: 'text', text: 'Be short.' },
    ])
    const sent = files.calls[0]
    expect(sent?.projection.meta.tokens.attachments).toBeGreaterThan(0)
    expect(sent?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'file', data: new URL(png), mediaType: 'image/png', filename: 'dot.png' },
          { type: 'file', data: new URL('https://files.example.com/report.pdf'), mediaType: 'application/pdf', filename: 'report.pdf' },
          { type: 'text', text: 'Be short.' },
        ],
      },
    ])
    expectValid(sent?.messages ?? [])
    // streamText accepted them: the model's prompt has the image's bytes and the PDF's URL
    const prompt = model.doStreamCalls[0]?.prompt.at(-1)
    expect(prompt?.role === 'user' && prompt.content.map((part) => part.type)).toEqual(['text', 'file', 'file', 'text'])
    await expect.poll(async () => JSON.stringify(await files.reload())).toBe(JSON.stringify(messages))
  })
})

describe('file parts kept in the attachment store', () => {
  it('keeps the bytes once outside the entries, reloads the same data: URLs, and sends the bytes', async () => {
    const stores = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: stores.threads, chatId: 'kept', attachments: stores.attachments })
    const model = toolCallingModel('none', {})
    const calls: ProjectedCall[] = []
    const transport = createProjectedChatTransport({
      persistence,
      model,
      policy: definePolicy({}),
      counter,
      onCall: (call) => calls.push(call),
      recordWaitMs: 1000,
    })
    const bytes = dot
    const ask: UIMessage = { id: 'u1', role: 'user', parts: [] }
    ask.parts.push(
      { type: 'text', text: 'Look' },
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${bytes}`, filename: 'dot.png' },
      // the same picture twice: stored once
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${bytes}` },
      // not canonical base64 (a line break): kept inline, exactly as given
      { type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGVs\nbG8=' },
    )
    const messages = await send(transport, [ask])
    const entries = (await stores.threads.load('kept')).entries
    expect(JSON.stringify(entries)).not.toContain(bytes)
    const [stored] = await stores.attachments.listForThread('kept')
    expect(stored).toMatchObject({ mediaType: 'image/png', bytes: 70 })
    expect(entries[0]?.kind === 'message' && entries[0].payload.parts?.map((part) => (part.type === 'text' ? part.text : part.source.type))).toEqual([
      'Look',
      'attachment',
      'attachment',
      'url',
    ])
    // sent as bytes, counted as attachments
    expect(calls[0]?.projection.meta.tokens.attachments).toBeGreaterThan(0)
    expect(calls[0]?.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'file', data: bytes, mediaType: 'image/png', filename: 'dot.png' },
        { type: 'file', data: bytes, mediaType: 'image/png' },
        { type: 'file', data: new URL('data:text/plain;base64,aGVs\nbG8='), mediaType: 'text/plain' },
      ],
    })
    expectValid(calls[0]?.messages ?? [])
    expect(model.doStreamCalls[0]?.prompt.at(-1)?.content).toHaveLength(4)
    // a reload (a new page: nothing cached) gives the same data: URLs back
    const reloaded = createChatPersistence({ store: stores.threads, chatId: 'kept', attachments: stores.attachments })
    const loaded = await reloaded.load()
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(messages))
    // saving what was loaded appends nothing; a regenerate branches and the branch holds the file too
    await expect(reloaded.save(loaded)).resolves.toMatchObject({ appended: 0, forked: false })
    const branched = await reloaded.save([ask])
    expect(branched).toMatchObject({ forked: true })
    await stores.threads.delete('kept')
    expect(await stores.attachments.listForThread(branched.threadId)).toHaveLength(1)
    expect(JSON.stringify(await reloaded.load())).toBe(JSON.stringify([ask]))
  })
})

describe('message metadata and data parts (server route)', () => {
  it('round-trip with the messages, transient data parts are not stored, and neither reaches the model', async () => {
    const { threads } = createMemoryBackedStores()
    const persistence = createChatPersistence({ store: threads, chatId: 'data' })
    const model = scriptedChatModel()
    const sent: ModelMessage[][] = []
    // a route that streams its own data parts beside the model's answer, and the app's metadata
    const route = async (request: Request): Promise<Response> => {
      const projected = readProjectedRequest(await request.json())
      sent.push(projected.input.messages)
      const stream = createUIMessageStream({
        execute: ({ writer }) => {
          writer.write({ type: 'start', messageId: projected.responseMessageId, messageMetadata: { app: { rating: 'none', at: 7 } } })
          writer.write({ type: 'data-status', id: 'status-1', data: { step: 'searched', hits: 3 } })
          writer.write({ type: 'data-toast', data: 'saved!', transient: true })
          writer.merge(streamText({ model, ...projected.input }).toUIMessageStream({ sendStart: false }))
        },
      })
      return createUIMessageStreamResponse({ stream })
    }
    const transport = new DefaultChatTransport<UIMessage>({
      api: 'http://app.test/api/chat',
      prepareSendMessagesRequest: projectedSendMessagesRequest({ persistence, policy: definePolicy({}), counter }),
      fetch: (url, init) => route(new Request(url, init)),
    })
    const transientSeen: unknown[] = []
    const turn = async (history: UIMessage[]): Promise<UIMessage[]> => {
      const stream = await submit(transport, 'data', history)
      let reply: UIMessage | undefined
      // useChat's onData sees transient parts; they never join the message
      const [forMessage, forData] = stream.tee()
      void (async () => {
        for await (const chunk of forData) if (chunk.type === 'data-toast') transientSeen.push(chunk.data)
      })()
      for await (const message of readUIMessageStream<UIMessage>({ stream: forMessage })) reply = message
      if (reply === undefined) throw new Error('no reply')
      const all = [...history, reply]
      await persistence.save(all)
      return all
    }
    const ask: UIMessage = { id: 'u1', role: 'user', metadata: { sentFrom: 'mobile', draftId: 'd-1' }, parts: [{ type: 'text', text: 'find it' }] }
    let messages = await turn([ask])
    expect(transientSeen).toEqual(['saved!'])
    expect(messages[1]?.metadata).toEqual({ app: { rating: 'none', at: 7 } })
    expect(messages[1]?.parts.filter((part) => part.type.startsWith('data-'))).toEqual([
      { type: 'data-status', id: 'status-1', data: { step: 'searched', hits: 3 } },
    ])
    // an app-side data part added to the user's next message, with its own metadata
    messages = await turn([
      ...messages,
      {
        id: 'u2',
        role: 'user',
        metadata: { sentFrom: 'desktop' },
        parts: [
          { type: 'data-context', data: { page: '/orders' } },
          { type: 'text', text: 'thanks' },
        ],
      } as UIMessage,
    ])
    const reloaded = await createChatPersistence({ store: threads, chatId: 'data' }).load()
    expect(reloaded).toEqual(JSON.parse(JSON.stringify(messages)))
    expect(JSON.stringify(reloaded)).not.toContain('saved!')
    // what the route received: no metadata, no data parts, valid model messages
    for (const request of sent) {
      expectValid(request)
      const text = JSON.stringify(request)
      for (const hidden of ['mobile', 'desktop', 'rating', 'searched', '/orders', 'saved!']) expect(text).not.toContain(hidden)
    }
    expect(sent[1]?.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
  })
})

describe('turning the attachment store on for a chat that has files inline', () => {
  it('keeps the stored messages as they are (no branch, nothing appended) and stores new files in the store', async () => {
    const stores = createMemoryBackedStores()
    const inlineFile: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${dot}` }] }
    await createChatPersistence({ store: stores.threads, chatId: 'upgrade' }).save([inlineFile])
    const upgraded = createChatPersistence({ store: stores.threads, chatId: 'upgrade', attachments: stores.attachments })
    const loaded = await upgraded.load()
    expect(loaded).toEqual([inlineFile])
    await expect(upgraded.save(loaded)).resolves.toMatchObject({ appended: 0, forked: false })
    const next: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGVsbG8=' }] }
    await expect(upgraded.save([...loaded, next])).resolves.toMatchObject({ appended: 1, forked: false })
    const entries = (await stores.threads.load('upgrade')).entries
    expect(
      entries.map((entry) => entry.kind === 'message' && entry.payload.parts?.[0]?.type !== 'text' && entry.payload.parts?.[0]?.source.type),
    ).toEqual(['url', 'attachment'])
    expect(await upgraded.load()).toEqual([inlineFile, next])
  })
})

/** `useChat`'s own Chat over a chat's projected transport, saving on every finish as the README's apps do. */
async function chatOver(chatId: string, chat: ReturnType<typeof setup>, sendAutomaticallyWhen: typeof lastAssistantMessageIsCompleteWithToolCalls) {
  const saves: Promise<unknown>[] = []
  const useChat = new Chat<UIMessage>({
    id: chatId,
    messages: await chat.persistence.load(),
    transport: chat.transport,
    sendAutomaticallyWhen,
    onFinish: ({ messages }) => void saves.push(chat.persistence.save(messages)),
  })
  return { useChat, saved: () => Promise.all(saves) }
}

describe("useChat's own Chat class over the projected transport", () => {
  it('approval: addToolApprovalResponse and the automatic resend run the tool; the chat reloads as Chat holds it', async () => {
    const set = setup('chat-approval', toolCallingModel('deleteFile', { path: 'd.txt' }), { deleteFile })
    const { useChat: chat, saved } = await chatOver('chat-approval', set, lastAssistantMessageIsCompleteWithApprovalResponses)
    await chat.sendMessage({ text: 'delete d.txt' })
    const part = chat.messages[1]?.parts.find((candidate) => candidate.type === 'tool-deleteFile')
    expect(part).toMatchObject({ state: 'approval-requested' })
    const approvalId = part !== undefined && 'approval' in part ? (part.approval?.id as string) : ''
    await chat.addToolApprovalResponse({ id: approvalId, approved: true })
    await expect.poll(() => chat.status).toBe('ready')
    await expect.poll(() => chat.messages[1]?.parts.some((candidate) => candidate.type === 'text')).toBe(true)
    expect(chat.messages[1]?.parts.find((candidate) => candidate.type === 'tool-deleteFile')).toMatchObject({
      state: 'output-available',
      output: { deleted: 'd.txt' },
    })
    await saved()
    await expect.poll(async () => JSON.stringify(await set.reload())).toBe(JSON.stringify(chat.messages))
  })

  it('client-side tool: addToolOutput and the automatic resend send the output to the model', async () => {
    const set = setup('chat-client-tool', toolCallingModel('askLocation', { why: 'weather' }), clientTools)
    const { calls } = set
    const { useChat: chat, saved } = await chatOver('chat-client-tool', set, lastAssistantMessageIsCompleteWithToolCalls)
    await chat.sendMessage({ text: 'weather here?' })
    const part = chat.messages[1]?.parts.find((candidate) => candidate.type === 'tool-askLocation')
    expect(part).toMatchObject({ state: 'input-available' })
    await chat.addToolOutput({
      tool: 'askLocation',
      toolCallId: part !== undefined && 'toolCallId' in part ? part.toolCallId : '',
      output: { city: 'Oslo' },
    })
    await expect.poll(() => calls.length).toBe(2)
    await expect.poll(() => chat.status).toBe('ready')
    expect(calls[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', toolName: 'askLocation', output: { type: 'text', value: '{"city":"Oslo"}' } }],
    })
    await saved()
    await expect.poll(async () => JSON.stringify(await set.reload())).toBe(JSON.stringify(chat.messages))
  })
})
