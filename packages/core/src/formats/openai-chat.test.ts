import { describe, expect, it } from 'vitest'
import type { ProjectedMessage } from '../project/types'
import { projectionOf as projection } from '../testing/projection-fixture'
import { toOpenAIChat } from './openai-chat'
import { openAIChatProblems } from './provider-rules'


function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested)
    Object.freeze(value)
  }
  return value
}

const conversation: ProjectedMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Zürich? 🌦' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_1', name: 'weather', arguments: { city: 'Zürich', days: 2 } },
      { id: 'call_2', name: 'clock', arguments: {} },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', name: 'weather', content: '{"temp":12}' },
  { role: 'tool', toolCallId: 'call_2', name: 'clock', content: 'Error: timeout', isError: true },
  { role: 'assistant', content: '12 °C.' },
  { role: 'user', content: '' },
]

describe('toOpenAIChat', () => {
  it('maps every role to its Chat Completions shape', () => {
    expect(toOpenAIChat(projection(conversation))).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Zürich? 🌦' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Zürich","days":2}' } },
          { id: 'call_2', type: 'function', function: { name: 'clock', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":12}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: timeout' },
      { role: 'assistant', content: '12 °C.' },
      { role: 'user', content: '' },
    ])
  })

  it('keeps assistant text beside tool calls', () => {
    const [message] = toOpenAIChat(
      projection([{ role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'a', name: 'look', arguments: { q: 1 } }] }]),
    )
    expect(message).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
    })
  })

  it('leaves out tool_calls when the call list is empty, since the API rejects an empty array', () => {
    const [message] = toOpenAIChat(projection([{ role: 'assistant', content: '', toolCalls: [] }]))
    expect(message).toStrictEqual({ role: 'assistant', content: '' })
  })

  it('gives a request that passes the ordering rules', () => {
    expect(openAIChatProblems(toOpenAIChat(projection(conversation)))).toEqual([])
  })

  it('is deterministic and does not mutate its input', () => {
    const frozen = deepFreeze(projection(structuredClone(conversation)))
    const first = JSON.stringify(toOpenAIChat(frozen))
    expect(JSON.stringify(toOpenAIChat(frozen))).toBe(first)
    expect(JSON.stringify(toOpenAIChat(projection(structuredClone(conversation))))).toBe(first)
  })

  it('returns fresh objects: changing the request leaves the projection alone', () => {
    const result = projection(structuredClone(conversation))
    const messages = toOpenAIChat(result)
    const toolCall = messages[2]
    if (toolCall?.role !== 'assistant') throw new Error('expected the assistant message')
    toolCall.tool_calls?.pop()
    expect(result.messages[2]).toEqual(conversation[2])
  })
})
