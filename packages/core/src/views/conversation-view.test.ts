import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { conversationView } from './conversation-view'
import { reasoningView } from './reasoning-view'

describe('conversationView', () => {
  it('keeps user and assistant text only, in order, whatever was summarized, reset or dropped', () => {
    const thread = createThread({ now: () => 5 })
    thread.append({ kind: 'message', payload: { role: 'system', content: 'internal note' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather?' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: {} }, refs: { callId: 'c', toolCallId: 't' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: '' }, refs: { callId: 'c' } })
    thread.append({ kind: 'tool_result', payload: { name: 'weather', result: 'rain' }, refs: { toolCallId: 't' } })
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 4, content: 'asked about weather' } })
    thread.append({ kind: 'context_op', payload: { op: 'reset', reason: 'x' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Rain, sorr' }, meta: { interrupted: true } })
    expect(conversationView(thread)).toEqual([
      { seq: 1, role: 'user', content: 'Weather?', createdAt: 5, interrupted: false },
      { seq: 7, role: 'assistant', content: 'Rain, sorr', createdAt: 5, interrupted: true },
    ])
    expect(conversationView([...thread.entries])).toEqual(conversationView(thread))
  })
})

describe('views of messages with names, refusals and parts', () => {
  it('show a refusal without text, an image-only message, and keep names and parts', () => {
    const thread = createThread()
    const image = { type: 'image' as const, source: { type: 'url' as const, url: 'https://x/a.png' } }
    thread.append({ kind: 'message', payload: { role: 'user', content: '', name: 'ada', parts: [image] } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: '', refusal: 'I cannot help with that.' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: '' } })
    const conversation = conversationView(thread)
    expect(conversation.map(({ seq, name, refusal, parts }) => ({ seq, name, refusal, parts }))).toEqual([
      { seq: 0, name: 'ada', refusal: undefined, parts: [image] },
      { seq: 1, name: undefined, refusal: 'I cannot help with that.', parts: undefined },
    ])
    expect(reasoningView(thread)).toEqual([
      { kind: 'message', seq: 0, role: 'user', content: '', interrupted: false, name: 'ada', parts: [image] },
      { kind: 'message', seq: 1, role: 'assistant', content: '', interrupted: false, refusal: 'I cannot help with that.' },
    ])
  })
})
