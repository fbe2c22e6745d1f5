import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InvalidMessagesError } from '../errors/threadlens-error'
import { mutate, mutationsArbitrary } from '../testing/oracle/mutations'
import { fromZodError, openAIChatMessagesSchema } from '../testing/oracle/openai-chat-import.oracle'
import { read } from '../validation/readers'
import { safeParse } from '../validation/zod-issues'
import { fromProblem } from '../import/openai-chat-import-checks'
import { openAIChatMessagesReader } from '../import/openai-chat-import-readers'

// The hand-written reader of imported Chat Completions messages against the zod schema it replaced
// (test-only oracle): same accepted arrays, same output, same error (index, field, message).

const seed = 20261123

const samples: readonly unknown[] = [
  { role: 'system', content: 'Rules.' },
  { role: 'developer', content: [{ type: 'text', text: 'Dev' }], name: 'dev' },
  { role: 'user', content: 'Hi', name: 'ann', extra: 1 },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' } },
      { type: 'file', file: { file_id: 'file-1' } },
    ],
  },
  { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
  { role: 'assistant', content: null, refusal: 'No.', name: 'bot', tool_calls: null },
  { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'refusal', refusal: 'No.' }] },
  { role: 'user', content: [{ type: 'refusal', refusal: 'No.' }] },
  { role: 'tool', tool_call_id: 'c1', content: '{"celsius":3}' },
  { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }] },
  { role: 'user', content: [{ type: 'input_audio', input_audio: {} }] },
  { role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
  // At the bounds: one-character url, call id, tool name and answered id.
  { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
  { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'x', arguments: '' } }] },
  { role: 'tool', tool_call_id: 'x', content: '' },
]

function describeError(error: InvalidMessagesError): unknown {
  return { index: error.index, field: error.field, message: error.message }
}

describe('imported Chat Completions messages', () => {
  it(`are read as the zod oracle read them, valid and damaged (seed ${seed})`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...samples), { maxLength: 5 }), mutationsArbitrary, (messages, mutations) => {
        const value = mutate(messages, mutations)
        const mine = read(openAIChatMessagesReader, value)
        const theirs = safeParse(openAIChatMessagesSchema, value)
        if (theirs.success) expect(mine.ok ? JSON.stringify(mine.value) : describeError(fromProblem(mine.problem))).toBe(JSON.stringify(theirs.data))
        else expect(mine.ok ? mine.value : describeError(fromProblem(mine.problem))).toEqual(describeError(fromZodError(theirs.error)))
      }),
      { seed, numRuns: 2000 },
    )
  })
})
