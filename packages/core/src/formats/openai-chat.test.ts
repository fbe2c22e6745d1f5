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

describe('toOpenAIChat: files Chat Completions cannot take', () => {
  const withFile = (mediaType: string, base64: string, filename?: string): ProjectedMessage[] => [
    {
      role: 'user',
      content: 'Read this',
      parts: [
        { type: 'text', text: 'Read this' },
        { type: 'file', source: { type: 'attachment', id: 'sha256-x', mediaType, bytes: 10 }, ...(filename === undefined ? {} : { filename }) },
      ],
    },
  ]
  const attachmentData = (base64: string) => () => base64

  it('sends a PDF as a file part, a text file as its UTF-8 text, and names any other file without sending it', () => {
    const pdf = toOpenAIChat(projection(withFile('application/pdf', 'JVBERi0=', 'a.pdf')), { attachmentData: attachmentData('JVBERi0=') })
    expect(pdf[0]?.content).toEqual([
      { type: 'text', text: 'Read this' },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
    ])
    // "grüße\n" in UTF-8, base64.
    const text = toOpenAIChat(projection(withFile('text/markdown', 'Z3LDvMOfZQo=', 'notes.md')), { attachmentData: attachmentData('Z3LDvMOfZQo=') })
    expect(text[0]?.content).toEqual([
      { type: 'text', text: 'Read this' },
      { type: 'text', text: 'notes.md:\ngrüße\n' },
    ])
    const docx = toOpenAIChat(projection(withFile('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'UEsDBA==')), {
      attachmentData: attachmentData('UEsDBA=='),
    })
    expect(docx[0]?.content).toEqual([
      { type: 'text', text: 'Read this' },
      {
        type: 'text',
        text: '[file (application/vnd.openxmlformats-officedocument.wordprocessingml.document) not sent: Chat Completions takes only PDF files]',
      },
    ])
    for (const messages of [pdf, text, docx]) expect(openAIChatProblems(messages)).toEqual([])
    expect(openAIChatProblems([{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:text/plain;base64,aGk=' } }] }])).toEqual([
      "messages[0].content[0]: file.file_data must be a PDF: Chat Completions takes only PDF files (send a text file's text as a text part)",
    ])
  })
})
