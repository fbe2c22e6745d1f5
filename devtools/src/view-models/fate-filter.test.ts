import { createThread, createTokenCounter, definePolicy, project } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { entryFates } from '@threadlens/core/views'
import { fateFilterOptions, fateFilters, fateMatches } from './fate-filter'

describe('fate filters', () => {
  it('split the thread: sent and left out partition it, and each drop reason is a part of left out', async () => {
    const thread = createThread({ id: 'filters', now: () => 1 })
    for (let turn = 0; turn < 30; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'word '.repeat(30)}` } })
      thread.append({ kind: 'tool_call', payload: { name: 'lookup', arguments: { turn } }, refs: { callId: `c${turn}`, toolCallId: `t${turn}` } })
      thread.append({ kind: 'tool_result', payload: { name: 'lookup', result: 'row '.repeat(200) }, refs: { toolCallId: `t${turn}` } })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}` } })
    }
    const counter = await createTokenCounter('heuristic')
    const { meta } = project({
      thread,
      policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 6000, reserveOutputTokens: 200, maxTurns: 12, toolTrace: 'masked' }),
      counter,
    })
    const fates = entryFates(meta)
    const options = fateFilterOptions(meta).map((option) => option.value)
    expect(options).toContain('dropped:window')
    const count = (filter: (typeof options)[number]) => thread.entries.filter((entry) => fateMatches(fates.fateOf(entry.seq), filter)).length
    expect(count('all')).toBe(thread.entries.length)
    expect(count('sent') + count('left-out')).toBe(thread.entries.length)
    expect(count('as-written') + count('shortened')).toBe(count('sent'))
    expect(count('shortened')).toBeGreaterThan(0)
    const reasons = options.filter((option) => option.startsWith('dropped:'))
    expect(reasons.reduce((sum, reason) => sum + count(reason), 0) + count('summarized')).toBe(count('left-out'))
    // Whatever is offered can be remembered: a stored choice is checked against `fateFilters`.
    for (const option of options) expect(fateFilters).toContain(option)
  })
})
