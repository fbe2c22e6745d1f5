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

  /** A projected message with text only, and the request message it becomes: one text block per string. */
  const message = (role: 'system' | 'user' | 'assistant', content: string): ProjectedMessage => ({ role, content })
  const turn = (role: 'user' | 'assistant', ...texts: string[]) => ({ role, content: texts.map((text) => ({ type: 'text', text })) })

  it.each<{ name: string; input: ProjectedMessage[]; expected: object }>([
    {
      name: 'joins the leading system messages into `system`, skipping empty ones',
      input: [message('system', 'Prompt.'), message('system', ''), message('system', 'Memory: 🧠'), message('user', 'Hi')],
      expected: { system: 'Prompt.\n\nMemory: 🧠', messages: [turn('user', 'Hi')] },
    },
    {
      name: 'has no `system` key when there is no system text',
      input: [message('user', 'Hi')],
      expected: { messages: [turn('user', 'Hi')] },
    },
  ])('$name', ({ input, expected }) => {
    expect(convert(input)).toStrictEqual(expected)
  })

  it.each<{ name: string; input: ProjectedMessage[]; expected: object[] }>([
    {
      name: 'turns a later system message into a user note merged with its neighbours',
      input: [message('user', 'One'), message('system', 'Be brief.'), message('user', 'Two')],
      expected: [turn('user', 'One', 'System note: Be brief.', 'Two')],
    },
    {
      name: 'drops empty and whitespace-only text, then merges so roles still alternate',
      input: [message('user', 'First'), message('assistant', ' \n'), message('user', ''), message('user', 'Second'), message('assistant', 'Answer')],
      expected: [turn('user', 'First', 'Second'), turn('assistant', 'Answer')],
    },
    {
      name: `starts with a user turn reading "${anthropicOmittedHistoryText}" when history starts with the assistant`,
      input: [message('system', 'Prompt.'), message('assistant', 'As I said…'), message('user', 'Go on')],
      expected: [turn('user', anthropicOmittedHistoryText), turn('assistant', 'As I said…'), turn('user', 'Go on')],
    },
  ])('$name', ({ input, expected }) => {
    expect(convert(input).messages).toEqual(expected)
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
    const refused = ['call.1', 'call:1', 'функция🙂']
    const request = convert([
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: '', toolCalls: refused.map((id, index) => ({ id, name: `tool${index}`, arguments: {} })) },
      ...refused.map((id, index): ProjectedMessage => ({ role: 'tool', toolCallId: id, name: `tool${index}`, content: `result ${index}` })),
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
