import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { customTokenCounter, heuristicCount } from '../tokens/token-counter'
import { jsonObjectTextArbitrary } from '../testing/json-text-arbitrary'
import { toAnthropicMessages } from './anthropic-messages'
import { fromOpenAIChat } from '../import/from-openai-chat'
import { toOpenAIChat } from './openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from './provider-rules'

// Import → project with a roomy budget → export gives the input back byte for byte, for arrays in
// the canonical form docs/formats.md describes (the listed differences are not generated).
const seed = 1_616_2026
const counter = customTokenCounter('heuristic', heuristicCount, false)

const textArbitrary = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 16 }), fc.constantFrom('line one', 'line two', '', ' ', '🙂👩‍👩‍👧'))
const visibleTextArbitrary = textArbitrary.filter((text) => text !== '')
const speakerArbitrary = fc.option(fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/), { nil: undefined })
const textPartArbitrary = textArbitrary.map((text) => ({ type: 'text' as const, text }))
const imagePartArbitrary = fc
  .record({
    url: fc.constantFrom(
      'https://example.com/cat.png',
      'http://example.com/a b.jpg',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/webp;base64,UklGRg==',
    ),
    detail: fc.option(fc.constantFrom('auto' as const, 'low' as const, 'high' as const), { nil: undefined }),
  })
  .map(({ url, detail }) => ({ type: 'image_url' as const, image_url: detail === undefined ? { url } : { url, detail } }))
const filePartArbitrary = fc
  .record({
    source: fc.oneof(
      // Chat Completions takes only PDF files; a text file goes out as a text part (see the example test).
      fc.constant('data:application/pdf;base64,JVBERi0xLjQ=').map((data) => ({ file_data: data })),
      fc.stringMatching(/^file-[a-zA-Z0-9]{1,10}$/).map((id) => ({ file_id: id })),
    ),
    filename: fc.option(fc.constantFrom('report.pdf', 'notes.txt'), { nil: undefined }),
  })
  .map(({ source, filename }) => ({ type: 'file' as const, file: filename === undefined ? source : { ...source, filename } }))

function named<TMessage extends object>(message: TMessage, name: string | undefined): TMessage & { name?: string } {
  return name === undefined ? message : { ...message, name }
}

const userArbitrary = fc
  .record({
    content: fc.oneof(textArbitrary, fc.array(fc.oneof(textPartArbitrary, imagePartArbitrary, filePartArbitrary), { minLength: 1, maxLength: 4 })),
    name: speakerArbitrary,
  })
  .map(({ content, name }) => [named({ role: 'user' as const, content }, name)])

const laterSystemArbitrary = fc
  .record({ content: fc.oneof(textArbitrary, fc.array(textPartArbitrary, { minLength: 1, maxLength: 3 })), name: speakerArbitrary })
  .map(({ content, name }) => [named({ role: 'system' as const, content }, name)])

const argumentsArbitrary = fc.dictionary(
  fc.string({ maxLength: 5 }).filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key)),
  fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()),
  { maxKeys: 3 },
)

const assistantArbitrary = fc
  .record({
    content: fc.oneof(textArbitrary, fc.array(textPartArbitrary, { minLength: 1, maxLength: 3 })),
    name: speakerArbitrary,
    refusal: fc.option(visibleTextArbitrary, { nil: undefined }),
    calls: fc.array(
      fc.record({
        name: fc.constantFrom('weather', 'search', 'read_file'),
        // Arguments as JSON.stringify writes them, or spaced and spelled as recorders write them (kept as text).
        arguments: fc.oneof(
          argumentsArbitrary.map((value) => JSON.stringify(value)),
          jsonObjectTextArbitrary,
        ),
        // A tool message's content: a string or text parts, which stay parts.
        result: fc.oneof(textArbitrary, fc.array(textPartArbitrary, { minLength: 1, maxLength: 3 })),
      }),
      { maxLength: 3 },
    ),
    nullContent: fc.boolean(),
  })
  .map(({ content, name, refusal, calls, nullContent }) => ({ content, name, refusal, calls, nullContent }))

const arrayArbitrary: fc.Arbitrary<unknown[]> = fc
  .record({
    prefix: fc.option(textArbitrary, { nil: undefined }),
    first: userArbitrary,
    rest: fc.array(fc.oneof(userArbitrary, laterSystemArbitrary, assistantArbitrary), { maxLength: 8 }),
  })
  .map(({ prefix, first, rest }) => {
    let callNumber = 0
    const messages: unknown[] = prefix === undefined ? [] : [{ role: 'system', content: prefix }]
    for (const turn of [first, ...rest]) {
      if (Array.isArray(turn)) {
        messages.push(...turn)
        continue
      }
      const toolCalls = turn.calls.map((call) => ({
        id: `call_${(callNumber += 1)}`,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }))
      // Null content only where the API allows it (with calls or a refusal); empty text there would come back null.
      const canBeNull = toolCalls.length > 0 || turn.refusal !== undefined
      const content = canBeNull && (turn.nullContent || turn.content === '') ? null : turn.content
      const message: Record<string, unknown> = { role: 'assistant', content }
      if (turn.name !== undefined) message['name'] = turn.name
      if (turn.refusal !== undefined) message['refusal'] = turn.refusal
      if (toolCalls.length > 0) message['tool_calls'] = toolCalls
      messages.push(message)
      toolCalls.forEach((call, position) => messages.push({ role: 'tool', tool_call_id: call.id, content: turn.calls[position]?.result ?? '' }))
    }
    return messages
  })

describe('OpenAI chat round trip', () => {
  it(`import → project → toOpenAIChat gives the input back byte for byte, and both providers accept the projection (fast-check seed ${seed}, 300 runs)`, () => {
    fc.assert(
      fc.property(arrayArbitrary, (input) => {
        const imported = fromOpenAIChat(input)
        const thread = createThread({ id: 'round-trip' })
        thread.appendMany(imported.entries)
        const policy = definePolicy({
          maxInputTokens: 10_000_000,
          reserveOutputTokens: 1_000,
          ...(imported.systemPrompt === undefined ? {} : { systemPrompt: imported.systemPrompt }),
        })
        const result = project({ thread, policy, counter })
        const output = toOpenAIChat(result)
        expect(openAIChatProblems(output)).toEqual([])
        expect(JSON.stringify(output)).toBe(JSON.stringify(input))
        expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])
      }),
      { numRuns: 300, seed },
    )
  })
})
