import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkFixture } from '../testing/fixture-cases'
import { mutate, mutationsArbitrary } from '../testing/mutations'
import { read } from '../validation/readers'
import { fromProblem } from './openai-chat-import-checks'
import { openAIChatMessagesReader } from './openai-chat-import-readers'

// Accept/reject fixtures of the reader of imported Chat Completions messages
// (testing/fixtures/openai-chat-import.json): arrays of the samples below with
// random damage (testing/mutations.ts), seeded and deduplicated, each with the output the reader
// must give (same JSON text) or the error it must raise (index, field, message). They were recorded
// from the zod schema this reader replaced, and the reader agreed on all of them. A rule change is
// a change to the fixture: edit the case by hand, or run
//   UPDATE_FIXTURES=1 node_modules/.bin/vitest run --project node packages/core/src/import/openai-chat-import.fixtures.test.ts
// which rewrites the expected outcomes from the reader as it is (refused under CI), and review the diff.

/** Chat Completions messages of every role and part type, as bases for damaged imports. */
const chatSamples: readonly unknown[] = [
  { role: 'system', content: 'Rules.' },
  { role: 'developer', content: [{ type: 'text', text: 'Dev' }], name: 'dev' },
  { role: 'user', content: 'Hi', name: 'ann', extra: 1 },
  // Repeated on purpose: the same part types as packages/core/src/import/from-openai-chat.test.ts imports (here a base to damage).
  {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' } },
      { type: 'file', file: { file_id: 'file-1' } },
    ],
  },
  {
    role: 'assistant',
    content: 'Checking.',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
  },
  { role: 'assistant', content: null, refusal: 'No.', name: 'bot', tool_calls: null },
  { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'a' },
      { type: 'refusal', refusal: 'No.' },
    ],
  },
  { role: 'user', content: [{ type: 'refusal', refusal: 'No.' }] },
  { role: 'tool', tool_call_id: 'c1', content: '{"celsius":3}' },
  {
    role: 'tool',
    tool_call_id: 'c1',
    content: [
      { type: 'text', text: 'x' },
      { type: 'text', text: 'y' },
    ],
  },
  { role: 'user', content: [{ type: 'input_audio', input_audio: {} }] },
  { role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
  // At the bounds: one-character url, call id, tool name and answered id.
  { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
  { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'x', arguments: '' } }] },
  { role: 'tool', tool_call_id: 'x', content: '' },
]

function outcome(value: unknown): { ok: true; value: unknown } | { ok: false; error: unknown } {
  const result = read(openAIChatMessagesReader, value)
  if (result.ok) return { ok: true, value: result.value }
  const error = fromProblem(result.problem)
  return { ok: false, error: { index: error.index, field: error.field, message: error.message } }
}

describe('imported Chat Completions messages', () => {
  it('are read as the recorded fixtures say: openai-chat-import.json', () => {
    const result = checkFixture(new URL('../testing/fixtures/openai-chat-import.json', import.meta.url), outcome)
    expect(result.cases).toBeGreaterThan(0)
    expect(result.mismatches, `${result.mismatches.length} of ${result.cases} cases differ`).toEqual([])
  })

  it('give a value that reads back the same or an InvalidMessagesError, on any damage (seed 20261123)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chatSamples), { maxLength: 5 }), mutationsArbitrary, (messages, mutations) => {
        const result = outcome(mutate(messages, mutations))
        if (result.ok) expect(JSON.stringify(outcome(result.value))).toBe(JSON.stringify(result))
      }),
      { seed: 20261123, numRuns: 1000 },
    )
  })
})
