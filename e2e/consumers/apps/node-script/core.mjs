// Plain Node ESM: @threadlens/core as installed, exact token counts from the lazily loaded encoding.
import assert from 'node:assert/strict'
import { createThread, createTokenCounter, definePolicy, project, toOpenAIChat } from '@threadlens/core'

const thread = createThread({ id: 'node-thread' })
for (let turn = 0; turn < 40; turn++) {
  thread.append({ kind: 'message', payload: { role: 'user', content: `Question ${turn}: ${'how far is it? '.repeat(20)}` } })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: `Answer ${turn}: ${'quite far. '.repeat(20)}` } })
}
const counter = await createTokenCounter('o200k_base')
const policy = definePolicy({ maxInputTokens: 2000, reserveOutputTokens: 500, systemPrompt: 'Be brief.' })
const result = project({ thread, policy, counter })
const messages = toOpenAIChat(result)

assert.ok(result.meta.tokens.total <= result.meta.budget.input, 'the projection fits its budget')
assert.ok(result.meta.dropped.length > 0, 'a 40-turn thread does not fit 1,500 tokens: something was dropped')
assert.equal(messages[0]?.role, 'system')
assert.equal(counter.count('hello world'), 2, 'o200k_base counts "hello world" as 2 tokens')
console.log(`node: ${messages.length} messages, ${result.meta.tokens.total} of ${result.meta.budget.input} tokens`)
