import { createThread, createTokenCounter, definePolicy } from '@threadlens/core'
import { modelMessageSchema, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { projectModelMessages } from './model-messages'
import { uiMessageToEntryInputs } from './ui-message-entries'

describe('projectModelMessages', () => {
  it('sends tool calls, results, errors, denials and user files in the AI SDK shape', async () => {
    const messages: UIMessage[] = [
      {
        id: 'u1',
        role: 'user',
        parts: [
          { type: 'text', text: 'Weather in Oslo? See map.' },
          { type: 'file', mediaType: 'image/png', url: 'https://x.example/map.png' },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'secret thoughts', state: 'done' },
          { type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Oslo' }, output: { celsius: 4 } },
          {
            type: 'tool-weather',
            toolCallId: 'c2',
            state: 'output-denied',
            input: { city: 'Bergen' },
            approval: { id: 'p', approved: false, reason: 'not now' },
          },
          { type: 'step-start' },
          { type: 'text', text: '4 °C.', state: 'done' },
        ],
      },
    ]
    const thread = createThread({ id: 't' })
    thread.appendMany(messages.flatMap((message) => uiMessageToEntryInputs(message)))
    const counter = await createTokenCounter('heuristic')
    const { instructions, messages: rest } = projectModelMessages({ thread, policy: definePolicy({ systemPrompt: 'Be brief.' }), counter })
    const model = [...(instructions ?? []), ...rest]
    expect(instructions).toEqual([{ role: 'system', content: 'Be brief.' }])
    for (const message of model) expect(modelMessageSchema.safeParse(message).success).toBe(true)
    expect(model).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Oslo? See map.' },
          { type: 'file', data: new URL('https://x.example/map.png'), mediaType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: { city: 'Bergen' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: '{"celsius":4}' } }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'weather',
            output: { type: 'error-text', value: 'The user denied this tool call: not now' },
          },
        ],
      },
      { role: 'assistant', content: '4 °C.' },
    ])
    expect(JSON.stringify(model)).not.toContain('secret thoughts')
  })

  it('sends a message’s own images and files (core parts) in order, store-held ones from attachmentData', async () => {
    const thread = createThread({ id: 't-parts' })
    const stored = { type: 'attachment' as const, id: `sha256-${'a'.repeat(64)}`, mediaType: 'image/png', bytes: 3 }
    thread.append({
      kind: 'message',
      payload: {
        role: 'user',
        content: 'Compare',
        parts: [
          { type: 'text', text: 'Compare' },
          { type: 'image', source: { type: 'url', url: 'https://x.example/a.png' } },
          { type: 'image', source: stored },
          { type: 'file', source: { type: 'url', url: 'data:application/pdf;base64,JVBERi0=' }, filename: 'a.pdf' },
        ],
      },
    })
    const counter = await createTokenCounter('heuristic')
    const input = { thread, policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 1_000 }), counter }
    const { messages } = projectModelMessages(input, { attachmentData: (id) => (id === stored.id ? 'AAEC' : undefined) })
    for (const message of messages) expect(modelMessageSchema.safeParse(message).success).toBe(true)
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image', image: new URL('https://x.example/a.png') },
          { type: 'image', image: 'AAEC', mediaType: 'image/png' },
          { type: 'file', data: new URL('data:application/pdf;base64,JVBERi0='), mediaType: 'application/pdf', filename: 'a.pdf' },
        ],
      },
    ])
    expect(() => projectModelMessages(input)).toThrow(/attachmentData/)
  })

  it('sends a data: URL that is not base64 as its bytes in base64 (the SDK reads every data: URL as base64)', async () => {
    const thread = createThread({ id: 't-text-url' })
    const note: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain;charset=utf-8,caf%C3%A9%20ok%FF' }],
    }
    thread.appendMany(uiMessageToEntryInputs(note))
    const { messages } = projectModelMessages({ thread, policy: definePolicy({}), counter: await createTokenCounter('heuristic') })
    const expected = btoa(String.fromCharCode(...new TextEncoder().encode('café ok'), 0xff))
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'file', data: expected, mediaType: 'text/plain' }] }])
  })
})
