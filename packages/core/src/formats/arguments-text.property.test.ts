import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseEntry } from '../entries/entry-schema'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { jsonObjectTextArbitrary } from '../testing/json-text-arbitrary'
import { customTokenCounter, heuristicCount } from '../tokens/token-counter'
import { toAnthropicMessages } from './anthropic-messages'
import { fromOpenAIChat } from '../import/from-openai-chat'
import { parseArgumentsText } from '../import/openai-chat-import-checks'
import { toOpenAIChat } from './openai-chat'

// A call's arguments text goes out as it came in, whatever JSON.parse would make of it.
const seed = 2_811_2026
const counter = customTokenCounter('heuristic', heuristicCount, false)

function roundTrip(argumentsText: string) {
  const messages = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: argumentsText } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'done' },
  ]
  const imported = fromOpenAIChat(messages)
  const thread = createThread({ id: 'arguments' })
  thread.appendMany(imported.entries)
  const result = project({ thread, policy: definePolicy({ maxInputTokens: 1_000_000, reserveOutputTokens: 0 }), counter })
  const call = toOpenAIChat(result)[1] as { tool_calls: { function: { arguments: string } }[] }
  return { imported, thread, result, sent: call.tool_calls[0]?.function.arguments }
}

describe('tool call arguments text', () => {
  it(`comes back byte for byte through import → project → toOpenAIChat, kept beside the object only when JSON.stringify would change it (fast-check seed ${seed}, 500 runs)`, () => {
    fc.assert(
      fc.property(jsonObjectTextArbitrary, (argumentsText) => {
        const { imported, thread, result, sent } = roundTrip(argumentsText)
        expect(sent).toBe(argumentsText)
        const stored = thread.entries.find((entry) => entry.kind === 'tool_call')
        if (stored?.kind !== 'tool_call') throw new Error('no call stored')
        const value = parseArgumentsText(argumentsText)
        // Stored data reads -0 as 0 (readJsonData); JSON text compares them alike.
        expect(JSON.stringify(stored.payload.arguments)).toBe(JSON.stringify(value))
        expect(stored.payload.argumentsText).toBe(JSON.stringify(value) === argumentsText ? undefined : argumentsText)
        // The stored form passes the store's reader (what IndexedDB reads and JSONL imports use).
        expect(() => parseEntry(JSON.parse(JSON.stringify(stored)))).not.toThrow()
        // Only integers beyond 2^53 are reported: the object holds their digits as strings.
        expect(imported.changes.every((change) => change.kind === 'unsafe-integer')).toBe(true)
        const anthropicCall = toAnthropicMessages(result).messages[1]?.content as { type: string; input: unknown }[]
        expect(anthropicCall.map((block) => [block.type, JSON.stringify(block.input)])).toEqual([['tool_use', JSON.stringify(value)]])
      }),
      { seed, numRuns: 500 },
    )
  })

  // Repeated on purpose: a case table of the same shape as the model ids in packages/core/src/models/models.test.ts (other cases).
  it.each([
    ['spacing', '{"a": 1, "b": [1, 2]}'],
    ['1.0', '{"price":1.0}'],
    ['1e2', '{"count":1e2}'],
    ['-0', '{"offset":-0}'],
    ['a key given twice (the last wins in the object)', '{"a":1,"a":2}'],
    ['unicode escapes', '{"name":"Jos\\u00e9 \\ud83d\\ude42 \\/"}'],
    ['an integer beyond 2^53', '{"order":12345678901234567890}'],
  ])('keeps %s as sent', (_what, argumentsText) => {
    expect(roundTrip(argumentsText).sent).toBe(argumentsText)
  })

  it('refuses argumentsText that says something else than arguments', () => {
    const thread = createThread({ id: 'mismatch' })
    expect(() =>
      thread.append({
        kind: 'tool_call',
        payload: { name: 'f', arguments: { a: 1 }, argumentsText: '{"a":2}' },
        refs: { callId: 'c', toolCallId: 't' },
      }),
    ).toThrow(/argumentsText must be JSON text that parses to arguments/)
    expect(() =>
      thread.append({
        kind: 'tool_call',
        payload: { name: 'f', arguments: { a: 1 }, argumentsText: '{"a":1.0}' },
        refs: { callId: 'c', toolCallId: 't' },
      }),
    ).not.toThrow()
  })
})
