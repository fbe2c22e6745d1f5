import { describe, expect, it } from 'vitest'
import type { ProjectedMessage } from '../project/types'
import { projectionOf as projection } from '../testing/projection-fixture'
import { anthropicOmittedHistoryText, anthropicToolId, anthropicToolIdPattern, toAnthropicMessages } from './anthropic-messages'
import { anthropicMessagesProblems } from './provider-rules'

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested)
    Object.freeze(value)
  }
  return value
}

function convert(messages: readonly ProjectedMessage[]) {
  const request = toAnthropicMessages(projection(messages))
  expect(anthropicMessagesProblems(request)).toEqual([])
  return request
}

describe('toAnthropicMessages', () => {
  it('sends images of the types the API takes and says which it left out, so the request is never refused for one', () => {
    const image = (url: string) => ({ type: 'image' as const, source: { type: 'url' as const, url } })
    const request = convert([
      {
        role: 'user',
        content: 'Look',
        parts: [{ type: 'text', text: 'Look' }, image('data:image/png;base64,iVBORw0KGgo='), image('data:image/svg+xml;base64,PHN2Zz4=')],
      },
    ])
    expect(request.messages[0]?.content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: '[image of type image/svg+xml left out: the Messages API takes JPEG, PNG, GIF and WebP images]' },
    ])
  })

  it('joins the leading system messages into `system`, skipping empty ones', () => {
    const request = convert([
      { role: 'system', content: 'Prompt.' },
      { role: 'system', content: '' },
      { role: 'system', content: 'Memory: 🧠' },
      { role: 'user', content: 'Hi' },
    ])
    expect(request).toStrictEqual({
      system: 'Prompt.\n\nMemory: 🧠',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    })
  })

  it('has no `system` key when there is no system text', () => {
    expect(convert([{ role: 'user', content: 'Hi' }])).toStrictEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    })
  })

  it('turns a later system message into a user note merged with its neighbours', () => {
    const request = convert([
      { role: 'user', content: 'One' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Two' },
    ])
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'System note: Be brief.' },
          { type: 'text', text: 'Two' },
        ],
      },
    ])
  })

  it('drops empty and whitespace-only text, then merges so roles still alternate', () => {
    const request = convert([
      { role: 'user', content: 'First' },
      { role: 'assistant', content: ' \n' },
      { role: 'user', content: '' },
      { role: 'user', content: 'Second' },
      { role: 'assistant', content: 'Answer' },
    ])
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'First' },
          { type: 'text', text: 'Second' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Answer' }] },
    ])
  })

  it(`starts with a user turn reading "${anthropicOmittedHistoryText}" when history starts with the assistant`, () => {
    const request = convert([
      { role: 'system', content: 'Prompt.' },
      { role: 'assistant', content: 'As I said…' },
      { role: 'user', content: 'Go on' },
    ])
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: anthropicOmittedHistoryText }] },
      { role: 'assistant', content: [{ type: 'text', text: 'As I said…' }] },
      { role: 'user', content: [{ type: 'text', text: 'Go on' }] },
    ])
  })

  it('puts tool calls in tool_use blocks and their results first in the next user message', () => {
    const request = convert([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } },
          { id: 'call_2', name: 'clock', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'call_2', name: 'clock', content: 'Error: timeout', isError: true },
      { role: 'tool', toolCallId: 'call_1', name: 'weather', content: '' },
      { role: 'user', content: 'Thanks' },
    ])
    expect(request.messages).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'call_2', name: 'clock', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_2', content: 'Error: timeout', is_error: true },
          { type: 'tool_result', tool_use_id: 'call_1' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ])
  })

  it('gives an error result with no text some content, since the API requires it', () => {
    const request = convert([
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'run', arguments: {} }] },
      { role: 'tool', toolCallId: 'x', name: 'run', content: '', isError: true },
    ])
    expect(request.messages[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'x', content: 'Error', is_error: true }])
  })

  it('maps tool ids the API refuses, alike for the call and its result', () => {
    const request = convert([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call.1', name: 'a', arguments: {} },
          { id: 'call:1', name: 'b', arguments: {} },
          { id: 'функция🙂', name: 'c', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'call.1', name: 'a', content: 'A' },
      { role: 'tool', toolCallId: 'call:1', name: 'b', content: 'B' },
      { role: 'tool', toolCallId: 'функция🙂', name: 'c', content: 'C' },
    ])
    const uses = request.messages[1]?.content ?? []
    const results = request.messages[2]?.content ?? []
    const useIds = uses.map((block) => (block.type === 'tool_use' ? block.id : ''))
    const resultIds = results.map((block) => (block.type === 'tool_result' ? block.tool_use_id : ''))
    expect(resultIds).toEqual(useIds)
    expect(new Set(useIds).size).toBe(3)
    for (const id of useIds) expect(id).toMatch(anthropicToolIdPattern)
    expect(useIds[0]).toMatch(/^call_1_[0-9a-f]{8}$/)
    expect(useIds[2]).toMatch(/^_{9}[0-9a-f]{8}$/)
  })

  it('maps ids deterministically and leaves valid ids alone', () => {
    expect(anthropicToolId('toolu_01A-b')).toBe('toolu_01A-b')
    expect(anthropicToolId('a.b')).toBe(anthropicToolId('a.b'))
    expect(anthropicToolId('a.b')).not.toBe(anthropicToolId('a b'))
    expect(anthropicToolId('')).toMatch(anthropicToolIdPattern)
  })

  it('trims trailing whitespace off a final assistant message, which the API refuses', () => {
    const request = convert([
      { role: 'user', content: 'Start' },
      { role: 'assistant', content: 'Sure, \n' },
    ])
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Sure,' }] })
  })

  it('is deterministic and does not mutate its input', () => {
    const messages: ProjectedMessage[] = [
      { role: 'system', content: 'Prompt.' },
      { role: 'assistant', content: 'Earlier ', toolCalls: [{ id: 'a.1', name: 'n', arguments: { deep: { list: [1, 'two'] } } }] },
      { role: 'tool', toolCallId: 'a.1', name: 'n', content: 'ok' },
      { role: 'system', content: 'Note' },
      { role: 'assistant', content: 'Done ' },
    ]
    const frozen = deepFreeze(projection(structuredClone(messages)))
    const first = JSON.stringify(toAnthropicMessages(frozen))
    expect(JSON.stringify(toAnthropicMessages(frozen))).toBe(first)
    expect(JSON.stringify(toAnthropicMessages(projection(structuredClone(messages))))).toBe(first)
    expect(frozen.messages).toEqual(messages)
  })
})
