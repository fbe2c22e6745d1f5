import { createThread } from '@threadlens/core'
import type { UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { UnstorableMessageError } from './errors'
import { entriesToUIMessages, uiMessageToEntryInputs } from './ui-message-entries'

const weatherCall: UIMessage = {
  id: 'a1',
  role: 'assistant',
  metadata: { model: 'mock' },
  parts: [
    { type: 'step-start' },
    { type: 'reasoning', text: 'The user wants weather.', state: 'done' },
    { type: 'text', text: 'Let me check.', state: 'done' },
    { type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Oslo' }, output: { celsius: 4 } },
    { type: 'tool-weather', toolCallId: 'c2', state: 'output-error', input: { city: '??' }, errorText: 'unknown city' },
    { type: 'step-start' },
    { type: 'source-url', sourceId: 's1', url: 'https://met.no', title: 'MET' },
    { type: 'data-forecast', id: 'f1', data: { days: [1, 2] } },
    { type: 'text', text: 'It is 4 °C in Oslo.', state: 'done' },
    { type: 'dynamic-tool', toolName: 'book', toolCallId: 'c3', state: 'approval-requested', input: { what: 'ferry' }, approval: { id: 'ap1' } },
  ],
}

describe('uiMessageToEntryInputs', () => {
  it('writes what the model sees as entries, one model call per step, and keeps the message on its first entry', () => {
    const inputs = uiMessageToEntryInputs(weatherCall)
    expect(inputs.map((input) => `${input.kind}:${input.refs?.callId}:${input.refs?.toolCallId ?? ''}`)).toEqual([
      'message:a1:0:',
      'tool_call:a1:0:c1',
      'tool_call:a1:0:c2',
      'tool_result:a1:0:c1',
      'tool_result:a1:0:c2',
      'message:a1:1:',
      'tool_call:a1:1:c3',
    ])
    expect(inputs[0]?.payload).toEqual({ role: 'assistant', content: 'Let me check.' })
    expect(inputs[4]?.payload).toEqual({ name: 'weather', error: 'unknown city' })
    expect(inputs[0]?.meta?.app?.['aiSdk']).toEqual({ v: 1, message: weatherCall })
    expect(inputs[1]?.meta?.app?.['aiSdk']).toEqual({ v: 1, messageId: 'a1' })
  })

  it('round-trips through a thread, entries validated by core', () => {
    const user: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is on this picture?' },
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'a.png' },
      ],
    }
    const thread = createThread({ id: 't' })
    thread.appendMany([...uiMessageToEntryInputs(user), ...uiMessageToEntryInputs(weatherCall)])
    expect(entriesToUIMessages(thread.entries)).toEqual([user, weatherCall])
  })

  it('refuses what the store could not keep, with the message id and the fix', () => {
    const polluted = JSON.parse('{"id":"m","role":"assistant","parts":[{"type":"data-x","data":{"__proto__":{"admin":true}}}]}') as UIMessage
    expect(() => uiMessageToEntryInputs(polluted)).toThrow(UnstorableMessageError)
    expect(() => uiMessageToEntryInputs(polluted)).toThrow(/"__proto__".*rename it/)
    const huge: UIMessage = {
      id: 'big',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${'A'.repeat(100)}` }],
    }
    expect(() => uiMessageToEntryInputs(huge, { maxInlineFileChars: 50 })).toThrow(/maxInlineFileChars/)
    const dated = { id: 'd', role: 'user', metadata: { at: new Date(0) }, parts: [] } as UIMessage
    expect(() => uiMessageToEntryInputs(dated)).toThrow(/Date/)
  })
})

describe('entriesToUIMessages', () => {
  it('shows entries written by other code as plain messages with dynamic tool parts', () => {
    const thread = createThread({ id: 't' })
    thread.appendMany([
      { kind: 'message', payload: { role: 'user', content: 'hi' } },
      { kind: 'message', payload: { role: 'assistant', content: 'checking' }, refs: { callId: 'k1' } },
      { kind: 'tool_call', payload: { name: 'clock', arguments: {} }, refs: { callId: 'k1', toolCallId: 'x1' } },
      { kind: 'tool_result', payload: { name: 'clock', result: '12:00' }, refs: { callId: 'k1', toolCallId: 'x1' } },
      { kind: 'summary', payload: { fromSeq: 0, toSeq: 1, content: 'greeting' } },
    ])
    const [user, assistant, ...rest] = entriesToUIMessages(thread.entries)
    expect(rest).toEqual([])
    expect(user?.parts).toEqual([{ type: 'text', text: 'hi' }])
    expect(assistant?.parts).toEqual([
      { type: 'text', text: 'checking' },
      { type: 'dynamic-tool', toolName: 'clock', toolCallId: 'x1', state: 'output-available', input: {}, output: '12:00' },
    ])
  })
})
