import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { conversationView } from './conversation-view'

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
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Rain, sorr', }, meta: { interrupted: true } })
    expect(conversationView(thread)).toEqual([
      { seq: 1, role: 'user', content: 'Weather?', createdAt: 5, interrupted: false },
      { seq: 7, role: 'assistant', content: 'Rain, sorr', createdAt: 5, interrupted: true },
    ])
    expect(conversationView([...thread.entries])).toEqual(conversationView(thread))
  })
})
