import { describe, expect, it } from 'vitest'
import { InvalidEntryError } from '../errors/threadlens-error'
import { parseEntry, parseEntryInput } from './entry-schema'

describe('entry schemas', () => {
  it('accepts every kind in its documented shape', () => {
    const inputs = [
      { kind: 'message', payload: { role: 'user', content: 'hi' } },
      { kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c1', toolCallId: 't1' } },
      { kind: 'tool_result', payload: { name: 'weather', result: { celsius: 3 } }, refs: { toolCallId: 't1' } },
      { kind: 'tool_result', payload: { name: 'weather', error: 'timeout' }, refs: { toolCallId: 't1' } },
      { kind: 'summary', payload: { fromSeq: 0, toSeq: 4, content: 'so far' } },
      { kind: 'context_op', payload: { op: 'pin', target: 2, reason: 'task' } },
      { kind: 'context_op', payload: { op: 'reset', reason: 'new topic' } },
    ]
    for (const input of inputs) expect(parseEntryInput(input)).toEqual(input)
  })

  it.each([
    [{ kind: 'message', payload: { role: 'robot', content: 'hi' } }, 'payload.role'],
    [{ kind: 'message', payload: { role: 'user' } }, 'payload.content'],
    [{ kind: 'message', payload: { role: 'user', content: 'hi', extra: 1 } }, 'payload'],
    [{ kind: 'note', payload: {} }, 'kind'],
    [{ kind: 'tool_call', payload: { name: 'x', arguments: {} } }, 'refs.toolCallId'],
    [{ kind: 'tool_call', payload: { name: 'x', arguments: [] }, refs: { toolCallId: 't' } }, 'payload.arguments'],
    [{ kind: 'tool_result', payload: { name: 'x', result: 1, error: 'both' }, refs: { toolCallId: 't' } }, 'payload'],
    [{ kind: 'summary', payload: { fromSeq: 5, toSeq: 2, content: '' } }, 'payload.fromSeq'],
    [{ kind: 'context_op', payload: { op: 'pin', reason: 'no target' } }, 'payload.target'],
    [{ kind: 'message', payload: { role: 'user', content: 'hi' }, refs: { iteration: -1 } }, 'refs.iteration'],
    [{ kind: 'tool_call', payload: { name: 'x', arguments: { n: Number.NaN } }, refs: { toolCallId: 't' } }, 'payload.arguments.n'],
  ])('rejects %j naming the field %s', (input, field) => {
    let caught: unknown
    try {
      parseEntryInput(input)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InvalidEntryError)
    expect((caught as InvalidEntryError).field).toBe(field)
    expect((caught as InvalidEntryError).message).toContain(field === '' ? 'Invalid' : field)
  })

  it('refuses prototype-polluting keys at any depth, even the own __proto__ key JSON.parse makes', () => {
    for (const text of [
      '{"kind":"tool_call","payload":{"name":"x","arguments":{"__proto__":{"polluted":true}}},"refs":{"toolCallId":"t"}}',
      '{"kind":"tool_call","payload":{"name":"x","arguments":{"a":{"b":{"constructor":{"prototype":1}}}}},"refs":{"toolCallId":"t"}}',
      '{"kind":"tool_result","payload":{"name":"x","result":[{"__proto__":1}]},"refs":{"toolCallId":"t"}}',
    ]) {
      expect(() => parseEntryInput(JSON.parse(text))).toThrow(InvalidEntryError)
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('validates complete stored entries', () => {
    const stored = { id: 'e1', threadId: 't1', seq: 0, kind: 'message', payload: { role: 'user', content: 'hi' }, refs: {}, createdAt: 1 }
    expect(parseEntry(stored)).toEqual(stored)
    expect(() => parseEntry({ ...stored, seq: -1 })).toThrow(/seq/)
    expect(() => parseEntry({ ...stored, id: 'has space' })).toThrow(/id/)
  })
})
