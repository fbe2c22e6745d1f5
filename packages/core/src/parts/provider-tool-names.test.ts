import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { toolNamePattern } from '../entries/tool-name'
import { InvalidToolNameError } from '../errors/threadlens-error'
import { projectionOf } from '../testing/projection-fixture'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { fromOpenAIChat } from '../import/from-openai-chat'
import { toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { providerToolNames, toolNameMapping } from './provider-tool-names'

const seed = 16_2026

const nameArbitrary = fc.oneof(
  fc.constantFrom('weather', 'web.search', 'get weather', 'a'.repeat(64), 'b'.repeat(65), '', 'функция', '🙂', 'x_00000000'),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 90 }),
  fc.stringMatching(/^[a-z._ -]{1,70}$/),
)

describe('tool names on the wire', () => {
  it(`map every name to a valid one, injectively, and back (fast-check seed ${seed}, 500 runs)`, () => {
    fc.assert(
      fc.property(fc.array(nameArbitrary, { maxLength: 12 }), (names) => {
        const mapping = toolNameMapping(names)
        const wire = new Map<string, string>()
        for (const name of names) {
          const sent = mapping.toProvider(name)
          expect(sent).toMatch(toolNamePattern)
          if (toolNamePattern.test(name)) expect(sent).toBe(name)
          expect(mapping.fromProvider(sent)).toBe(name)
          const earlier = wire.get(sent)
          if (earlier !== undefined) expect(earlier).toBe(name)
          wire.set(sent, name)
        }
        // Deterministic: the order names are met in does not matter.
        const reversed = toolNameMapping([...names].reverse())
        for (const name of names) expect(reversed.toProvider(name)).toBe(mapping.toProvider(name))
      }),
      { numRuns: 500, seed },
    )
  })

  it('never gives a stand-in that a valid name of the same request already holds', () => {
    const first = toolNameMapping(['web.search']).toProvider('web.search')
    const mapping = toolNameMapping(['web.search', first])
    expect(mapping.toProvider(first)).toBe(first)
    expect(mapping.toProvider('web.search')).not.toBe(first)
    expect(mapping.toProvider('web.search')).toMatch(toolNamePattern)
    expect(mapping.fromProvider(mapping.toProvider('web.search'))).toBe('web.search')
  })

  it('sends names stored before the rule as valid stand-ins to both providers, calls and schemas alike', () => {
    const result = projectionOf([
      { role: 'user', content: 'Look it up' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'web.search', arguments: { q: 'x' } }] },
      { role: 'tool', toolCallId: 'call_1', name: 'web.search', content: 'found' },
    ])
    const toolNames = providerToolNames(result, ['web.search', 'weather'])
    const standIn = toolNames.toProvider('web.search')
    expect(standIn).toMatch(/^web_search_[0-9a-f]{8}$/)
    expect(toolNames.toProvider('weather')).toBe('weather')

    const openAI = toOpenAIChat(result, { toolNames })
    expect(openAIChatProblems(openAI)).toEqual([])
    expect(openAI[1]).toMatchObject({ tool_calls: [{ function: { name: standIn } }] })
    const anthropic = toAnthropicMessages(result, { toolNames })
    expect(anthropicMessagesProblems(anthropic)).toEqual([])
    expect(anthropic.messages[1]?.content[0]).toMatchObject({ type: 'tool_use', name: standIn })
    // Without an explicit mapping the formats build the same one from the projection.
    expect(toOpenAIChat(result)).toEqual(openAI)
  })

  it('are reported by the provider checkers when broken', () => {
    const request = {
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] },
        { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'a', name: 'web.search', input: {} }] },
        { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'a', content: 'ok' }] },
      ],
    }
    expect(anthropicMessagesProblems(request)).toEqual(['messages[1].content[0]: tool_use name "web.search" must match ^[a-zA-Z0-9_-]{1,64}$'])
  })
})

describe('the tool name rule on append', () => {
  it('refuses a tool call named against the rule, naming the tool and the rule', () => {
    const thread = createThread()
    let caught: unknown
    try {
      thread.append({ kind: 'tool_call', payload: { name: 'get weather', arguments: {} }, refs: { toolCallId: 'c1' } })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InvalidToolNameError)
    const error = caught as InvalidToolNameError
    expect(error.toolName).toBe('get weather')
    expect(error.field).toBe('payload.name')
    expect(error.message).toContain('"get weather"')
    expect(error.message).toContain('^[a-zA-Z0-9_-]{1,64}$')
    expect(thread.entries).toHaveLength(0)
  })

  it('refuses a 65-character name and accepts a 64-character one', () => {
    const thread = createThread()
    expect(() => thread.append({ kind: 'tool_call', payload: { name: 'a'.repeat(65), arguments: {} }, refs: { toolCallId: 'c1' } })).toThrow(
      InvalidToolNameError,
    )
    thread.append({ kind: 'tool_call', payload: { name: 'a'.repeat(64), arguments: {} }, refs: { toolCallId: 'c1' } })
    expect(thread.entries).toHaveLength(1)
  })

  it('refuses an OpenAI import whose function name breaks the rule, naming the field', () => {
    expect(() =>
      fromOpenAIChat([
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'web.search', arguments: '{}' } }] },
      ]),
    ).toThrow(/index 1 \(tool_calls\.0\.function\.name\).*"web\.search".*\^\[a-zA-Z0-9_-\]\{1,64\}\$/)
  })
})
