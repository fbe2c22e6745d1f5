import fc from 'fast-check'
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base'
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { textArbitrary } from '../testing/random-thread'
import { createTokenCounter, customTokenCounter, heuristicCount, MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS } from './token-counter'

const plain = { disallowedSpecial: new Set<string>() }

describe('token counters', () => {
  it("equal gpt-tokenizer's own counts for the same text (o200k_base and cl100k_base)", async () => {
    const o200k = await createTokenCounter('o200k_base')
    const cl100k = await createTokenCounter('cl100k_base')
    fc.assert(
      fc.property(textArbitrary, (text) => {
        expect(o200k.count(text)).toBe(o200kCount(text, plain))
        expect(cl100k.count(text)).toBe(cl100kCount(text, plain))
      }),
      { numRuns: 1000, seed: 20261122 },
    )
  })

  it('count special-token markers in chat text as plain text instead of throwing', async () => {
    const counter = await createTokenCounter('o200k_base')
    expect(counter.count('<|endoftext|> and <|im_start|>')).toBeGreaterThan(5)
  })

  it('are shared per encoding: one load per page', async () => {
    expect(await createTokenCounter('o200k_base')).toBe(await createTokenCounter('o200k_base'))
    expect((await createTokenCounter('heuristic')).exact).toBe(false)
  })

  it('cost an entry as the projector emits it: overhead plus content', async () => {
    const counter = await createTokenCounter('o200k_base')
    const thread = createThread()
    const message = thread.append({ kind: 'message', payload: { role: 'user', content: 'What is the weather in Oslo?' } })
    const call = thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { toolCallId: 't' } })
    const result = thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 3 } }, refs: { toolCallId: 't' } })
    const failed = thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: {} }, refs: { toolCallId: 'u' } })
    const error = thread.append({ kind: 'tool_result', payload: { name: 'weather', error: 'timeout' }, refs: { toolCallId: 'u' } })
    const op = thread.append({ kind: 'context_op', payload: { op: 'pin', target: 0, reason: 'x' } })
    expect(counter.countEntry(message)).toBe(MESSAGE_OVERHEAD_TOKENS + o200kCount('What is the weather in Oslo?'))
    expect(counter.countEntry(call)).toBe(TOOL_CALL_OVERHEAD_TOKENS + o200kCount('weather') + o200kCount('{"city":"Oslo"}'))
    expect(counter.countEntry(result)).toBe(MESSAGE_OVERHEAD_TOKENS + o200kCount('{"celsius":3}'))
    expect(counter.countEntry(failed)).toBe(TOOL_CALL_OVERHEAD_TOKENS + o200kCount('weather') + o200kCount('{}'))
    expect(counter.countEntry(error)).toBe(MESSAGE_OVERHEAD_TOKENS + o200kCount('Error: timeout'))
    expect(counter.countEntry(op)).toBe(0)
  })

  it('trust counts the store saved on the entry for this counter, and only for it', () => {
    let calls = 0
    const counter = customTokenCounter('o200k_base', (text) => (calls++, text.length), true)
    const thread = createThread()
    const entry = thread.append({
      kind: 'message',
      payload: { role: 'user', content: 'hello' },
      meta: { tokens: { o200k_base: 77, cl100k_base: 5 } },
    })
    expect(counter.countEntry(entry)).toBe(77)
    expect(calls).toBe(0)
  })

  it('count each entry once', () => {
    let calls = 0
    const counter = customTokenCounter('test', (text) => (calls++, text.length), true)
    const entry = createThread().append({ kind: 'message', payload: { role: 'user', content: 'hello' } })
    counter.countEntry(entry)
    counter.countEntry(entry)
    expect(calls).toBe(1)
  })

  it('heuristic: about 4 ASCII characters a token, more for CJK and emoji, never zero for text', () => {
    // Repeated on purpose: the same shape as the examples in packages/core/src/utils/utf8-length.test.ts (another function's counts).
    expect(heuristicCount('')).toBe(0)
    expect(heuristicCount('abcd')).toBe(1)
    expect(heuristicCount('abcde')).toBe(2)
    expect(heuristicCount('東京')).toBe(2)
    expect(heuristicCount('🙂')).toBe(2)
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        expect(heuristicCount(text)).toBeGreaterThan(0)
      }),
      { numRuns: 200, seed: 1 },
    )
  })
})
