import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EntryInput, JsonObject, JsonValue } from '../entries/entry'
import type { ProjectedMessage, ProjectedToolCall } from '../project/types'
import { projectionOf as projection } from '../testing/projection-fixture'
import type { AnthropicMessagesRequest } from './anthropic-messages'
import { toAnthropicMessages } from './anthropic-messages'
import { fromOpenAIChat } from '../import/from-openai-chat'
import type { OpenAIChatMessage } from './openai-chat'
import { toOpenAIChat } from './openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from './provider-rules'
import { providerToolNames, type ProviderToolNames } from '../parts/provider-tool-names'

// Broken requests do not type-check; the checkers exist for exactly that data.
function openAI(messages: unknown[]): OpenAIChatMessage[] {
  return messages as OpenAIChatMessage[]
}
function anthropic(request: unknown): AnthropicMessagesRequest {
  return request as AnthropicMessagesRequest
}
function call(id: string, name = 'f', argumentsText = '{}') {
  return { id, type: 'function', function: { name, arguments: argumentsText } }
}
const text = (value: string) => ({ type: 'text', text: value })
const use = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} })
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })
// Messages of each API, so a case reads as one line.
const asks = (...calls: object[]) => ({ role: 'assistant', content: null, tool_calls: calls })
const answer = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content })
const user = (...content: object[]) => ({ role: 'user', content })
const assistant = (...content: object[]) => ({ role: 'assistant', content })

describe('openAIChatProblems', () => {
  it('accepts a valid request', () => {
    expect(
      openAIChatProblems(
        openAI([
          { role: 'system', content: 'Prompt' },
          { role: 'user', content: 'Hi' },
          asks(call('a'), call('b')),
          answer('b', ''),
          answer('a', 'x'),
          { role: 'assistant', content: 'Done' },
        ]),
      ),
    ).toEqual([])
  })

  it.each<[string, unknown[], string]>([
    [
      'a system message with an image part',
      [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x/a.png' } }] }],
      'messages[0].content[0]: must be a part of type "text"',
    ],
    ['a user message with empty parts', [{ role: 'user', content: [] }], 'messages[0]: content must be a string or a non-empty array of parts'],
    [
      'an image that is not a URL',
      [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
      'messages[0].content[0]: image_url.url must be an http(s) URL or a data:image/ URL',
    ],
    [
      'a file without bytes or id',
      [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf' } }] }],
      'messages[0].content[0]: file needs file_data or file_id',
    ],
    [
      'a speaker name providers refuse',
      [{ role: 'user', content: 'x', name: 'Ada Lovelace' }],
      'messages[0]: name "Ada Lovelace" must match ^[a-zA-Z0-9_-]{1,64}$',
    ],
    [
      'a cache breakpoint with another mode',
      [{ role: 'system', content: [{ type: 'text', text: 'x', prompt_cache_breakpoint: { mode: 'implicit' } }] }],
      "messages[0].content[0]: prompt_cache_breakpoint must be { mode: 'explicit' }",
    ],
    [
      'a cache breakpoint on assistant content',
      [{ role: 'assistant', content: [{ type: 'text', text: 'x', prompt_cache_breakpoint: { mode: 'explicit' } }] }],
      'messages[0].content[0]: prompt_cache_breakpoint is accepted on input content only (system, user, tool), not here',
    ],
    [
      'five cache breakpoints',
      Array.from({ length: 5 }, () => ({ role: 'user', content: [{ type: 'text', text: 'x', prompt_cache_breakpoint: { mode: 'explicit' } }] })),
      'messages: 5 prompt_cache_breakpoint markers; OpenAI writes at most 4 cache entries per request',
    ],
    ['an unknown role', [{ role: 'function', content: 'x' }], 'messages[0]: unknown role "function"'],
    [
      'a tool message with no assistant call before it',
      [{ role: 'user', content: 'Hi' }, answer('a', 'x')],
      'messages[1]: tool message "a" does not follow an assistant message with tool_calls',
    ],
    [
      'a tool message after a user message that followed the call',
      [asks(call('a')), { role: 'user', content: 'Hi' }, answer('a', 'x')],
      'messages[2]: tool message "a" does not follow an assistant message with tool_calls',
    ],
    [
      'a tool message answering another message’s call',
      [asks(call('a')), answer('a', 'x'), asks(call('b')), answer('a', 'x'), answer('b', 'x')],
      'messages[3]: tool message "a" answers no tool call of the assistant message at index 2',
    ],
    ['a call answered twice', [asks(call('a')), answer('a', 'x'), answer('a', 'y')], 'messages[2]: tool call "a" is answered twice'],
    [
      'a call unanswered before the next message',
      [asks(call('a'), call('b')), answer('a', 'x'), { role: 'user', content: 'Hi' }],
      'messages[0]: tool call "b" is not answered before the next non-tool message (index 2)',
    ],
    ['a call unanswered at the end', [asks(call('a'))], 'messages[0]: tool call "a" is not answered before the end of the request'],
    [
      'an empty tool_calls array',
      [{ role: 'assistant', content: 'x', tool_calls: [] }],
      'messages[0]: tool_calls must be a non-empty array when present',
    ],
    [
      'null content without tool calls',
      [{ role: 'assistant', content: null }],
      'messages[0]: assistant content must be a string when there are no tool_calls or refusal',
    ],
    [
      'arguments that are not an object',
      [asks(call('a', 'f', '[1]')), answer('a', '')],
      'messages[0].tool_calls[0]: function.arguments must be JSON text of an object',
    ],
    ['a call without a name', [asks(call('a', '')), answer('a', '')], 'messages[0].tool_calls[0]: function.name "" must match ^[a-zA-Z0-9_-]{1,64}$'],
    [
      'a call whose name providers refuse',
      [asks(call('a', 'web.search')), answer('a', '')],
      'messages[0].tool_calls[0]: function.name "web.search" must match ^[a-zA-Z0-9_-]{1,64}$',
    ],
    [
      'a duplicate call id in one message',
      [asks(call('a'), call('a')), answer('a', '')],
      'messages[0].tool_calls[1]: duplicate tool call id "a" in one message',
    ],
  ])('reports %s', (_case, messages, problem) => {
    expect(openAIChatProblems(openAI(messages))).toContain(problem)
  })
})

describe('anthropicMessagesProblems', () => {
  it('accepts a valid request', () => {
    expect(
      anthropicMessagesProblems(
        anthropic({
          system: 'Prompt',
          messages: [
            user(text('Hi')),
            assistant(text('Checking'), use('a'), use('b')),
            user(result('b'), result('a'), text('Thanks')),
            assistant(text('Done')),
          ],
        }),
      ),
    ).toEqual([])
  })

  // Repeated on purpose: rows of this table share one shape (each is its own broken request and the problem it must report).
  it.each<[string, unknown, string]>([
    ['an empty message list', { messages: [] }, 'messages: must not be empty'],
    [
      'a system that is neither a string nor text blocks',
      { system: 7, messages: [user(text('Hi'))] },
      'system: must be a string or an array of text blocks',
    ],
    ['an empty system text block', { system: [{ type: 'text', text: ' ' }], messages: [user(text('Hi'))] }, 'system[0]: empty text block'],
    [
      'a malformed cache_control',
      { messages: [user({ type: 'text', text: 'Hi', cache_control: { type: 'persistent' } })] },
      "messages[0].content[0]: cache_control must be { type: 'ephemeral', ttl?: '5m' | '1h' }",
    ],
    [
      'five cache breakpoints',
      {
        system: [
          { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
        ],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'c', cache_control: { type: 'ephemeral' } },
              { type: 'text', text: 'd', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
        cache_control: { type: 'ephemeral' },
      },
      'request: 5 cache_control breakpoints (system[0], system[1], messages[0].content[0], messages[0].content[1], request); at most 4 are allowed',
    ],
    [
      'a 1h breakpoint after a 5m one',
      {
        system: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }],
        messages: [user({ type: 'text', text: 'c', cache_control: { type: 'ephemeral', ttl: '1h' } })],
      },
      'messages[0].content[0]: a 1h cache_control after a 5m one (system[0]); longer TTLs must come first',
    ],
    ['a first message from the assistant', { messages: [assistant(text('Hi'))] }, 'messages[0]: the first message must be from the user'],
    ['two user messages in a row', { messages: [user(text('a')), user(text('b'))] }, 'messages[1]: two user messages in a row; roles must alternate'],
    ['a system role in messages', { messages: [{ role: 'system', content: [text('a')] }] }, 'messages[0]: role must be "user" or "assistant"'],
    ['an empty content array', { messages: [{ role: 'user', content: [] }] }, 'messages[0]: content must be a non-empty array of blocks'],
    ['string content', { messages: [{ role: 'user', content: 'Hi' }] }, 'messages[0]: content must be a non-empty array of blocks'],
    ['an empty text block', { messages: [user(text('a'), text(''))] }, 'messages[0].content[1]: empty text block'],
    ['a whitespace-only text block', { messages: [user(text(' \n'))] }, 'messages[0].content[0]: empty text block'],
    [
      'a tool_use id the API refuses',
      { messages: [user(text('a')), assistant(use('call.1')), user(result('call.1'))] },
      'messages[1].content[0]: tool_use id "call.1" must match ^[a-zA-Z0-9_-]+$',
    ],
    [
      'a tool_use with a non-object input',
      { messages: [user(text('a')), assistant({ ...use('a'), input: '{}' }), user(result('a'))] },
      'messages[1].content[0]: tool_use input must be an object',
    ],
    ['a tool_use in a user message', { messages: [user(use('a'))] }, 'messages[0].content[0]: tool_use only in assistant messages'],
    [
      'a tool_use not answered in the next message',
      { messages: [user(text('a')), assistant(use('a'), use('b')), user(result('a'))] },
      'messages[1]: tool_use "b" is not answered by a tool_result in the next message',
    ],
    [
      'a tool_use answered two messages later',
      { messages: [user(text('a')), assistant(use('a')), user(text('wait')), assistant(text('ok')), user(result('a'))] },
      'messages[4].content[0]: tool_result "a" answers no tool_use of the previous message',
    ],
    [
      'a tool_use as the final message',
      { messages: [user(text('a')), assistant(use('a'))] },
      'messages[1]: tool_use "a" is not answered by a tool_result in the next message',
    ],
    [
      'a tool_result after text',
      { messages: [user(text('a')), assistant(use('a')), user(text('b'), result('a'))] },
      'messages[2].content[1]: tool_result must come before any other block in its message',
    ],
    [
      'a tool_result in an assistant message',
      { messages: [user(text('a')), assistant(result('a'))] },
      'messages[1].content[0]: tool_result only in user messages',
    ],
    [
      'a tool_use answered twice',
      { messages: [user(text('a')), assistant(use('a')), user(result('a'), result('a'))] },
      'messages[2].content[1]: tool_use "a" is answered twice',
    ],
    [
      'a duplicate tool_use id',
      { messages: [user(text('a')), assistant(use('a')), user(result('a')), assistant(use('a')), user(result('a'))] },
      'messages[3].content[0]: duplicate tool_use id "a"',
    ],
    [
      'an error result without content',
      { messages: [user(text('a')), assistant(use('a')), user({ type: 'tool_result', tool_use_id: 'a', is_error: true })] },
      'messages[2].content[0]: an error tool_result needs content',
    ],
    [
      'a final assistant message ending in whitespace',
      { messages: [user(text('a')), assistant(text('b '))] },
      'messages[1].content[0]: the final assistant message must not end with whitespace',
    ],
    ['an unknown block type', { messages: [user({ type: 'video' })] }, 'messages[0].content[0]: unknown block type "video"'],
    ['an image without a source', { messages: [user({ type: 'image' })] }, 'messages[0].content[0]: image needs a source'],
    [
      'an image of a type the API refuses',
      { messages: [user({ type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: 'PHN2Zz4=' } })] },
      'messages[0].content[0]: source.media_type must be one of image/jpeg, image/png, image/gif, image/webp',
    ],
    [
      'an image over 5 MB',
      { messages: [user({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(5 * 1024 * 1024 + 4) } })] },
      `messages[0].content[0]: image data is ${5 * 1024 * 1024 + 4} base64 characters, over the API's ${5 * 1024 * 1024}`,
    ],
    [
      'more than 100 images',
      {
        messages: [
          { role: 'user', content: Array.from({ length: 101 }, () => ({ type: 'image', source: { type: 'url', url: 'https://x/a.png' } })) },
        ],
      },
      'request: 101 images; the API takes at most 100 per request (leave older ones out with policy.keepImagesTurns)',
    ],
    [
      'an image from the assistant',
      { messages: [user(text('a')), assistant({ type: 'image', source: { type: 'url', url: 'https://x/a.png' } })] },
      'messages[1].content[0]: image blocks only in user messages',
    ],
  ])('reports %s', (_case, request, problem) => {
    expect(anthropicMessagesProblems(anthropic(request))).toContain(problem)
  })
})

// ---------------------------------------------------------------------------------------------
// Property: random valid projections give valid requests for both providers, and the OpenAI
// request imports back to the same history.

const seed = 20240611

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])
const keyArbitrary = fc.string({ maxLength: 6 }).filter((key) => !forbiddenKeys.has(key))
const { json: jsonArbitrary } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(keyArbitrary, tie('json'), { maxKeys: 3 }),
  ),
}))
const argumentsArbitrary: fc.Arbitrary<JsonObject> = fc.dictionary(keyArbitrary, jsonArbitrary, { maxKeys: 4 })

const contentArbitrary = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('', ' ', '\n\t', 'plain text', '🙂👩‍👩‍👧', 'trailing space '),
)
const visibleContentArbitrary = contentArbitrary.filter((content) => content.trim() !== '')
const idStemArbitrary = fc.oneof(
  fc.constantFrom('call_', 'toolu_01-', 'call.', 'a:b/', '🙂', 'id with spaces ', '', 'функция'),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
)
const nameArbitrary = fc.oneof(fc.constantFrom('weather', 'read_file', 'search'), fc.string({ minLength: 1, maxLength: 12 }))

// Ids are unique per thread, so the generator numbers its odd stems.
type DraftCall = { stem: string; name: string; arguments: JsonObject }
type DraftResult = { content: string; isError: boolean }
type DraftTurn =
  | { kind: 'user' | 'system' | 'assistant'; content: string }
  | { kind: 'calls'; content: string; calls: DraftCall[]; results: DraftResult[]; order: number[] }

const callsTurnArbitrary = (minimumCalls: number): fc.Arbitrary<DraftTurn> =>
  fc.integer({ min: minimumCalls, max: 4 }).chain((count) =>
    fc.record({
      kind: fc.constant('calls' as const),
      content: contentArbitrary,
      calls: fc.array(fc.record({ stem: idStemArbitrary, name: nameArbitrary, arguments: argumentsArbitrary }), {
        minLength: count,
        maxLength: count,
      }),
      results: fc.array(fc.record({ content: contentArbitrary, isError: fc.boolean() }), { minLength: count, maxLength: count }),
      order: fc.shuffledSubarray(
        Array.from({ length: count }, (_, index) => index),
        { minLength: count, maxLength: count },
      ),
    }),
  )

const turnArbitrary: fc.Arbitrary<DraftTurn> = fc.oneof(
  fc.record({ kind: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const), content: contentArbitrary }),
  callsTurnArbitrary(0),
)
// The request ends where a model call would: a user message, tool results to act on, or an assistant prefill.
const finalTurnArbitrary: fc.Arbitrary<DraftTurn> = fc.oneof(
  fc.record({ kind: fc.constantFrom('user' as const, 'assistant' as const), content: visibleContentArbitrary }),
  callsTurnArbitrary(1),
)

const projectedArbitrary: fc.Arbitrary<ProjectedMessage[]> = fc
  .record({
    prefix: fc.array(contentArbitrary, { maxLength: 3 }),
    turns: fc.array(turnArbitrary, { maxLength: 12 }),
    last: finalTurnArbitrary,
  })
  .map(({ prefix, turns, last }) => {
    let counter = 0
    const messages: ProjectedMessage[] = prefix.map((content) => ({ role: 'system', content }))
    for (const turn of [...turns, last]) {
      if (turn.kind !== 'calls') {
        messages.push({ role: turn.kind, content: turn.content })
        continue
      }
      const toolCalls: ProjectedToolCall[] = turn.calls.map((draft) => {
        counter += 1
        return { id: `${draft.stem}${counter}`, name: draft.name, arguments: draft.arguments }
      })
      messages.push({ role: 'assistant', content: turn.content, toolCalls })
      for (const index of turn.order) {
        const toolCall = toolCalls[index]
        const outcome = turn.results[index]
        if (toolCall === undefined || outcome === undefined) continue
        messages.push({
          role: 'tool',
          toolCallId: toolCall.id,
          name: toolCall.name,
          content: outcome.content,
          ...(outcome.isError ? { isError: true as const } : {}),
        })
      }
    }
    return messages
  })

// What an import must give back for a history: entries without the ids and refs the thread assigns.
// Tool names the providers refuse come back under the stand-in the request carried.
function expectedEntries(history: readonly ProjectedMessage[], toolNames: ProviderToolNames): unknown[] {
  return history.flatMap((message): unknown[] => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ kind: 'message', role: message.role, content: message.content }]
      case 'assistant': {
        const toolCalls = message.toolCalls ?? []
        const text = { kind: 'message', role: 'assistant', content: message.content }
        if (toolCalls.length === 0) return [text]
        const calls = toolCalls.map((toolCall) => ({
          kind: 'tool_call',
          toolCallId: toolCall.id,
          name: toolNames.toProvider(toolCall.name),
          arguments: JSON.stringify(toolCall.arguments),
        }))
        return message.content === '' ? calls : [text, ...calls]
      }
      case 'tool':
        return [{ kind: 'tool_result', toolCallId: message.toolCallId, name: toolNames.toProvider(message.name), result: message.content }]
    }
  })
}

function comparableEntries(entries: readonly EntryInput[]): unknown[] {
  return entries.map((entry) => {
    switch (entry.kind) {
      case 'message':
        return { kind: 'message', role: entry.payload.role, content: entry.payload.content }
      case 'tool_call':
        return {
          kind: 'tool_call',
          toolCallId: entry.refs?.toolCallId,
          name: entry.payload.name,
          // JSON text: -0 and key order compare as the provider sees them.
          arguments: JSON.stringify(entry.payload.arguments),
        }
      case 'tool_result':
        return { kind: 'tool_result', toolCallId: entry.refs?.toolCallId, name: entry.payload.name, result: entry.payload.result }
      default:
        return entry
    }
  })
}

describe('formats on random projections', () => {
  it(`give requests both providers accept and import back losslessly (fast-check seed ${seed}, 1000 runs)`, () => {
    fc.assert(
      fc.property(projectedArbitrary, (messages) => {
        const result = projection(messages)
        const openAIRequest = toOpenAIChat(result)
        expect(openAIChatProblems(openAIRequest)).toEqual([])
        expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])

        const prefixLength = messages.findIndex((message) => message.role !== 'system')
        const prefix = messages.slice(0, prefixLength)
        const imported = fromOpenAIChat(JSON.parse(JSON.stringify(openAIRequest)))
        expect(imported.systemPrompt).toBe(prefix.length === 0 ? undefined : prefix.map((message) => message.content).join('\n\n'))
        expect(comparableEntries(imported.entries)).toEqual(expectedEntries(messages.slice(prefixLength), providerToolNames(result)))

        // One model call per assistant message: its text and tool calls share a callId.
        for (const entry of imported.entries) {
          if (entry.kind === 'tool_call') expect(entry.refs?.callId).toMatch(/^import-\d+$/)
        }
      }),
      { numRuns: 1000, seed },
    )
  })
})
