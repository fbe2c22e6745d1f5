import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { customTokenCounter } from '../tokens/token-counter'
import { debugView } from './debug-view'
import { project } from '../project/project'

describe('debugView', () => {
  it('shows the budget, each message with segment, tokens and seqs, and what was dropped', () => {
    const counter = customTokenCounter('words', (text) => text.split(/\s+/).filter(Boolean).length, true)
    const thread = createThread()
    for (let turn = 0; turn < 6; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `question number ${turn}` } })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer\nnumber ${turn}` } })
    }
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { toolCallId: 't' } })
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 40, reserveOutputTokens: 0, systemPrompt: 'Be brief.' }), counter })
    const text = debugView(result)
    expect(text.split('\n')[0]).toBe(
      `projection · words · ${result.meta.tokens.total} / 40 tokens (${((result.meta.tokens.total / 40) * 100).toFixed(1)}%) · free ${40 - result.meta.tokens.total} · reserved for output 0`,
    )
    expect(text).toContain('[system ]      5  system: Be brief.')
    expect(text).toContain('[history]      6  assistant #11: answer number 5')
    expect(text).toContain('→ weather({"city":"Oslo"})')
    expect(text).toContain('tool: weather (error): [interrupted')
    expect(text).toMatch(/dropped: 0–\d+ budget/)
    expect(text).toContain('flags: truncated · needsSummary (history-dropped) · unresolved calls: weather#12')
  })
})
