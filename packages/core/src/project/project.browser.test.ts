import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { definePolicy } from '../policy/policy'
import { createTokenCounter } from '../tokens/token-counter'
import { project } from './project'

function tokenizerRequests(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes('gpt-tokenizer') && name.includes('o200k'))
}

describe('core in a real browser', () => {
  it('loads the o200k encoding only when a counter is created, then projects exactly', async () => {
    expect(tokenizerRequests()).toEqual([])
    const counter = await createTokenCounter('o200k_base')
    expect(tokenizerRequests().length).toBeGreaterThan(0)

    const thread = createThread({ id: 'browser' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Wie ist das Wetter in Zürich? 天気は？ 🙂' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Zürich' } }, refs: { callId: 'c', toolCallId: 'w' } })
    thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 7 } }, refs: { callId: 'c', toolCallId: 'w' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: '7°C, bewölkt.' } })
    const result = project({ thread, policy: definePolicy({ systemPrompt: 'Kurz.' }), counter })

    // Values every browser-side consumer relies on: exact counts and a structured-cloneable result.
    // 12 is what gpt-tokenizer's o200k_base gives for this text under Node: same count in both runtimes.
    expect(counter.count('Wie ist das Wetter in Zürich? 天気は？ 🙂')).toBe(12)
    expect(result.meta.includedSeqs).toEqual([0, 1, 2, 3])
    expect(structuredClone(result)).toEqual(result)
    expect(openAIChatProblems(toOpenAIChat(result))).toEqual([])
    expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])
  })

  it('makes entry ids with the browser crypto and keeps entries frozen', () => {
    const thread = createThread()
    const entry = thread.append({ kind: 'message', payload: { role: 'user', content: 'hi' } })
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Object.isFrozen(entry.payload)).toBe(true)
  })
})
