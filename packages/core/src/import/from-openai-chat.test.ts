import { describe, expect, it } from 'vitest'
import { InvalidMessagesError } from '../errors/threadlens-error'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { customTokenCounter, heuristicCount } from '../tokens/token-counter'
import { fromOpenAIChat } from './from-openai-chat'
import { toOpenAIChat } from '../formats/openai-chat'
import { thrownBy } from '../testing/thrown-by'

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested)
    Object.freeze(value)
  }
  return value
}

function importError(messages: unknown): InvalidMessagesError {
  const error = thrownBy(() => fromOpenAIChat(messages))
  if (error instanceof InvalidMessagesError) return error
  throw error
}

/** Content parts of text alone, as the OpenAI messages and the stored entries spell them. */
function textParts(...texts: string[]) {
  return texts.map((text) => ({ type: 'text', text }))
}

function toolCall(id: string, name: string, argumentsText: string) {
  return { id, type: 'function', function: { name, arguments: argumentsText } }
}

describe('fromOpenAIChat', () => {
  it('imports a conversation with tool calls as entries', () => {
    const imported = fromOpenAIChat([
      { role: 'system', content: 'Prompt.' },
      { role: 'developer', content: [{ type: 'text', text: 'Rules.' }] },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        refusal: null,
        tool_calls: [toolCall('call_1', 'weather', '{"city":"Oslo"}'), toolCall('call_2', 'clock', '{}')],
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'noon' },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: textParts('{"temp"', ':3}'),
      },
      { role: 'system', content: 'Later note' },
      { role: 'assistant', content: null, tool_calls: [toolCall('call_3', 'clock', '{"zone":"UTC"}')] },
      { role: 'assistant', content: '' },
    ])
    expect(imported).toEqual({
      systemPrompt: 'Prompt.',
      entries: [
        // Only plain text joins the system prompt: parts stay parts.
        { kind: 'message', payload: { role: 'system', content: 'Rules.', parts: [{ type: 'text', text: 'Rules.' }] } },
        { kind: 'message', payload: { role: 'user', content: 'Weather?' } },
        { kind: 'message', payload: { role: 'assistant', content: 'Checking.' }, refs: { callId: 'import-3' } },
        {
          kind: 'tool_call',
          payload: { name: 'weather', arguments: { city: 'Oslo' } },
          refs: { callId: 'import-3', toolCallId: 'call_1' },
        },
        { kind: 'tool_call', payload: { name: 'clock', arguments: {} }, refs: { callId: 'import-3', toolCallId: 'call_2' } },
        { kind: 'tool_result', payload: { name: 'clock', result: 'noon' }, refs: { toolCallId: 'call_2' } },
        // A tool message's text parts stay parts; result is their text, joined by a newline as a message's content is.
        {
          kind: 'tool_result',
          payload: {
            name: 'weather',
            result: '{"temp"\n:3}',
            parts: textParts('{"temp"', ':3}'),
          },
          refs: { toolCallId: 'call_1' },
        },
        { kind: 'message', payload: { role: 'system', content: 'Later note' } },
        {
          kind: 'tool_call',
          payload: { name: 'clock', arguments: { zone: 'UTC' } },
          refs: { callId: 'import-7', toolCallId: 'call_3' },
        },
        { kind: 'message', payload: { role: 'assistant', content: '' }, refs: { callId: 'import-8' } },
      ],
      changes: [],
    })
  })

  it('has no system prompt without a leading system message', () => {
    expect(fromOpenAIChat([{ role: 'user', content: 'Hi' }]).systemPrompt).toBeUndefined()
    expect(fromOpenAIChat([]).entries).toEqual([])
  })

  it('does not mutate its input', () => {
    const messages = deepFreeze([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', '{"x":[1]}')] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ])
    const before = JSON.stringify(messages)
    fromOpenAIChat(messages)
    expect(JSON.stringify(messages)).toBe(before)
  })

  it('refuses anything but an array', () => {
    const error = importError({ messages: [] })
    expect(error.index).toBeUndefined()
    expect(error.message).toContain('expected an array of messages')
  })

  it('refuses an unknown role, naming the index and the supported roles', () => {
    const error = importError([
      { role: 'user', content: 'Hi' },
      { role: 'critic', content: 'x' },
    ])
    expect(error.index).toBe(1)
    expect(error.field).toBe('role')
    expect(error.message).toContain('"system", "developer", "user", "assistant", "tool"')
  })

  it('refuses content parts a role does not take, saying which it does', () => {
    const error = importError([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'https://x/a.png' } },
        ],
      },
    ])
    expect(error.index).toBe(0)
    expect(error.field).toBe('content.1')
    expect(error.message).toContain('content part type "image_url" is not supported here; this role takes "text", "refusal" parts')
  })

  it('refuses audio parts, the audio field, the legacy function_call field and function role, naming them', () => {
    const audio = importError([{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }])
    expect([audio.index, audio.field]).toEqual([0, 'content.0'])
    expect(audio.message).toContain('audio parts (input_audio) are not supported')
    const reply = importError([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: 'y', audio: { id: 'audio_1' } },
    ])
    expect([reply.index, reply.field]).toEqual([1, 'audio'])
    const legacy = importError([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
    ])
    expect([legacy.index, legacy.field]).toEqual([1, 'function_call'])
    expect(legacy.message).toContain('give the call as tool_calls')
    const role = importError([
      { role: 'user', content: 'x' },
      { role: 'function', name: 'f', content: 'y' },
    ])
    expect([role.index, role.field]).toEqual([1, 'role'])
    // null is how SDKs spell "absent": accepted.
    expect(
      fromOpenAIChat([
        { role: 'user', content: 'x' },
        { role: 'assistant', content: 'y', function_call: null, audio: null },
      ]).entries,
    ).toHaveLength(2)
  })

  it('keeps speaker names, refusals, text parts as parts, images and files', () => {
    const imported = fromOpenAIChat([
      {
        role: 'user',
        name: 'ada',
        content: textParts('line one', 'line two'),
      },
      // Repeated on purpose: the same part types as a chatSample in packages/core/src/import/openai-chat-import.fixtures.test.ts (here with the entry each becomes).
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          { type: 'file', file: { file_id: 'file-abc' } },
        ],
      },
      { role: 'assistant', name: 'helper', content: null, refusal: 'I cannot help with that.' },
    ])
    expect(imported.entries).toEqual([
      {
        kind: 'message',
        payload: {
          role: 'user',
          content: 'line one\nline two',
          name: 'ada',
          parts: textParts('line one', 'line two'),
        },
      },
      {
        kind: 'message',
        payload: {
          role: 'user',
          content: 'What is this?',
          parts: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' }, detail: 'low' },
            { type: 'file', source: { type: 'url', url: 'data:application/pdf;base64,JVBERi0=' }, filename: 'a.pdf' },
            { type: 'file', source: { type: 'provider-file', fileId: 'file-abc' } },
          ],
        },
      },
      {
        kind: 'message',
        payload: { role: 'assistant', content: '', name: 'helper', refusal: 'I cannot help with that.' },
        refs: { callId: 'import-2' },
      },
    ])
  })

  it('refuses a file part that is not a data: URL or carries both bytes and an id', () => {
    const raw = importError([{ role: 'user', content: [{ type: 'file', file: { file_data: 'JVBERi0=' } }] }])
    expect([raw.index, raw.field]).toEqual([0, 'content.0.file.file_data'])
    const both = importError([
      { role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', file_id: 'f' } }] },
    ])
    expect(both.field).toBe('content.0.file')
  })

  it('refuses a speaker name providers refuse, naming the field', () => {
    const error = importError([{ role: 'user', name: 'Ada Lovelace', content: 'x' }])
    expect([error.index, error.field]).toEqual([0, 'name'])
  })

  it('refuses content that is neither a string nor parts', () => {
    const error = importError([{ role: 'user', content: 42 }])
    expect([error.index, error.field]).toEqual([0, 'content'])
  })

  it('refuses an assistant message with neither content nor tool calls', () => {
    const error = importError([{ role: 'assistant', content: null }])
    expect([error.index, error.field]).toEqual([0, 'content'])
  })

  it('refuses tool call types other than function', () => {
    const error = importError([{ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'custom', custom: {} }] }])
    expect([error.index, error.field]).toEqual([0, 'tool_calls.0.type'])
    expect(error.message).toContain('only "function" calls')
  })

  it('refuses arguments that are not JSON', () => {
    const error = importError([{ role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', '{}'), toolCall('b', 'f', '{oops')] }])
    expect([error.index, error.field]).toEqual([0, 'tool_calls.1.function.arguments'])
  })

  it.each([
    ['[1,2]', 'an array'],
    ['"text"', 'a string'],
    ['7', 'a number'],
  ])('refuses arguments %s that are not an object', (argumentsText, described) => {
    const error = importError([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', argumentsText)] },
    ])
    expect([error.index, error.field]).toEqual([1, 'tool_calls.0.function.arguments'])
    expect(error.message).toContain(`got ${described}`)
  })

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s at any depth of the arguments', (key) => {
    const error = importError([{ role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', `{"outer":[{"${key}":{"polluted":true}}]}`)] }])
    expect([error.index, error.field]).toEqual([0, 'tool_calls.0.function.arguments'])
    expect(error.message).toContain(`"${key}" is not allowed`)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('reports what the entry schema refuses against the message field', () => {
    const error = importError([{ role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', '{"big":1e400}')] }])
    expect([error.index, error.field]).toEqual([0, 'tool_calls.0.function.arguments'])
    const longId = importError([{ role: 'assistant', content: null, tool_calls: [toolCall('x'.repeat(300), 'f', '{}')] }])
    expect([longId.index, longId.field]).toEqual([0, 'tool_calls.0.id'])
  })

  const callsA = { role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', '{}')] }
  const answer = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content })

  it.each<{ name: string; messages: unknown[]; at: [number, string]; says: string }>([
    {
      name: 'refuses a tool message answering an unknown id',
      messages: [callsA, answer('b', 'x')],
      at: [1, 'tool_call_id'],
      says: '"b"',
    },
    {
      name: 'refuses a tool message answering an already answered id',
      messages: [callsA, answer('a', 'x'), answer('a', 'y')],
      at: [2, 'tool_call_id'],
      says: 'already answered',
    },
    {
      name: 'refuses a tool call id used again while the first call is unanswered: a result could not tell them apart',
      messages: [callsA, callsA],
      at: [1, 'tool_calls.0.id'],
      says: 'not answered yet',
    },
  ])('$name', ({ messages, at, says }) => {
    const error = importError(messages)
    expect([error.index, error.field]).toEqual(at)
    expect(error.message).toContain(says)
  })

  it('gives a reused id of an answered call a new one, pairs the later result with it, and reports both', () => {
    // Recorded GPT-4o conversations reuse a call id in a later turn.
    const messages = [
      { role: 'user', content: 'order status?' },
      { role: 'assistant', content: null, tool_calls: [toolCall('call_1', 'lookup', '{"id":1}')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'shipped' },
      { role: 'assistant', content: null, tool_calls: [toolCall('call_1', 'lookup', '{"id":2}')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'pending' },
      { role: 'assistant', content: null, tool_calls: [toolCall('call_1~2', 'lookup', '{"id":3}'), toolCall('call_1', 'lookup', '{"id":4}')] },
      { role: 'tool', tool_call_id: 'call_1~2', content: 'a' },
      { role: 'tool', tool_call_id: 'call_1', content: 'b' },
    ]
    const { entries, changes } = fromOpenAIChat(messages)
    const ids = entries.map((entry) => `${entry.kind}:${entry.refs?.toolCallId ?? ''}`)
    expect(ids).toEqual([
      'message:',
      'tool_call:call_1',
      'tool_result:call_1',
      'tool_call:call_1~2',
      'tool_result:call_1~2',
      'tool_call:call_1~2~2',
      'tool_call:call_1~3',
      'tool_result:call_1~2~2',
      'tool_result:call_1~3',
    ])
    expect(changes).toEqual([
      { index: 3, field: 'tool_calls.0.id', kind: 'tool-call-id-renamed', from: 'call_1', to: 'call_1~2' },
      { index: 4, field: 'tool_call_id', kind: 'tool-call-id-renamed', from: 'call_1', to: 'call_1~2' },
      { index: 5, field: 'tool_calls.0.id', kind: 'tool-call-id-renamed', from: 'call_1~2', to: 'call_1~2~2' },
      { index: 5, field: 'tool_calls.1.id', kind: 'tool-call-id-renamed', from: 'call_1', to: 'call_1~3' },
      { index: 6, field: 'tool_call_id', kind: 'tool-call-id-renamed', from: 'call_1~2', to: 'call_1~2~2' },
      { index: 7, field: 'tool_call_id', kind: 'tool-call-id-renamed', from: 'call_1', to: 'call_1~3' },
    ])
    // Each renamed entry keeps the id the conversation gave it.
    expect(entries.map((entry) => entry.meta?.originalToolCallId)).toEqual([
      undefined,
      undefined,
      undefined,
      'call_1',
      'call_1',
      'call_1~2',
      'call_1',
      'call_1~2',
      'call_1',
    ])
    // The same input, the same ids: deterministic.
    expect(fromOpenAIChat(messages)).toEqual({ systemPrompt: undefined, entries, changes })
  })

  it.each(['', '  ', '\n\t', 'null', ' null\n'])('reads arguments %j as {} and reports it', (argumentsText) => {
    const { entries, changes } = fromOpenAIChat([{ role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', argumentsText)] }])
    expect(entries[0]).toMatchObject({ kind: 'tool_call', payload: { arguments: {} } })
    expect(changes).toEqual([{ index: 0, field: 'tool_calls.0.function.arguments', kind: 'empty-arguments', from: argumentsText, to: '{}' }])
  })

  it('keeps integers beyond 2^53 digit for digit, as strings, and reports them; safe numbers and strings are untouched', () => {
    const text =
      '{"order":12345678901234567890,"n":-98765432109876543210,"ok":9007199254740991,"p":-9007199254740992,"f":1.5,"e":2e3,"s":"12345678901234567890 \\" 99999999999999999999"}'
    const { entries, changes } = fromOpenAIChat([{ role: 'assistant', content: null, tool_calls: [toolCall('a', 'f', text)] }])
    expect(entries[0]).toMatchObject({
      payload: {
        arguments: {
          order: '12345678901234567890',
          n: '-98765432109876543210',
          ok: 9007199254740991,
          p: -9007199254740992,
          f: 1.5,
          e: 2000,
          s: '12345678901234567890 " 99999999999999999999',
        },
      },
    })
    expect(changes.map((change) => [change.kind, change.from])).toEqual([
      ['unsafe-integer', '12345678901234567890'],
      ['unsafe-integer', '-98765432109876543210'],
    ])
  })

  it('moves refusal parts to the refusal, after its own text, keeping text parts as parts, and reports each move', () => {
    const { entries, changes } = fromOpenAIChat([
      { role: 'user', content: 'help me' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Partly:' },
          { type: 'refusal', refusal: 'not that part' },
        ],
        refusal: 'No.',
      },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'Never.' }] },
    ])
    expect(entries.slice(1).map((entry) => entry.payload)).toEqual([
      { role: 'assistant', content: 'Partly:', refusal: 'No.\nnot that part', parts: [{ type: 'text', text: 'Partly:' }] },
      { role: 'assistant', content: '', refusal: 'Never.' },
    ])
    expect(changes).toEqual([
      { index: 1, field: 'content.1', kind: 'refusal-part-moved', from: 'not that part', to: 'refusal' },
      { index: 2, field: 'content.0', kind: 'refusal-part-moved', from: 'Never.', to: 'refusal' },
    ])
    const thread = createThread({ id: 'refusals' })
    thread.appendMany(entries)
    const output = toOpenAIChat(
      project({
        thread,
        policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 0 }),
        counter: customTokenCounter('heuristic', heuristicCount, false),
      }),
    )
    expect(output.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Partly:' }], refusal: 'No.\nnot that part' },
      { role: 'assistant', content: null, refusal: 'Never.' },
    ])
  })

  it('sends a tool result stored as parts as parts, and a reduced one as its new text', () => {
    const messages = [
      { role: 'user', content: 'read' },
      { role: 'assistant', content: null, tool_calls: [toolCall('a', 'read_file', '{}')] },
      {
        role: 'tool',
        tool_call_id: 'a',
        content: textParts('line 1', 'line 2'),
      },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: null, tool_calls: [toolCall('b', 'read_file', '{}')] },
      { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'line 3' }] },
    ]
    const thread = createThread({ id: 'tool-parts' })
    thread.appendMany(fromOpenAIChat(messages).entries)
    const counter = customTokenCounter('heuristic', heuristicCount, false)
    const whole = toOpenAIChat(project({ thread, policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 0 }), counter }))
    expect(JSON.stringify(whole)).toBe(JSON.stringify(messages))
    // Masking the older result replaces its text: the parts are not sent beside a placeholder.
    const masked = project({
      thread,
      policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 0, toolTrace: 'masked', keepLastTurns: 1 }),
      counter,
    })
    const tool = toOpenAIChat(masked)[2] as { content: unknown }
    expect(typeof tool.content).toBe('string')
    expect(tool.content).not.toContain('line 1\nline 2')
  })
})
