import { createTokenCounter, definePolicy, project, type EntryInput } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { openThreadlensStores } from '../../open-stores'

const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(' ')
const filler = (turn: number): EntryInput[] => [
  { kind: 'message', payload: { role: 'user', content: `question ${turn} ${words(120, 'lorem')}` } },
  { kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${words(120, 'ipsum')}` }, refs: { callId: `answer-${turn}` } },
]

describe('windowed load (real Chromium IndexedDB)', () => {
  it('reaches back to the first member of a model call and to a call whose result is in the window, and projects as the whole thread does', async () => {
    const stores = await openThreadlensStores({ name: `threadlens-browser-window-${crypto.randomUUID()}` })
    const counter = await createTokenCounter('heuristic')
    const { id } = await stores.threads.create()
    const inputs: EntryInput[] = []
    for (let turn = 0; turn < 30; turn++) inputs.push(...filler(turn))
    // One model call whose first tool call is far older than its second: the unit is both.
    const firstMember = inputs.length
    inputs.push({ kind: 'tool_call', payload: { name: 'lookup', arguments: { part: 1 } }, refs: { callId: 'spread', toolCallId: 'part-1' } })
    for (let turn = 30; turn < 40; turn++) inputs.push(...filler(turn))
    inputs.push({ kind: 'tool_call', payload: { name: 'lookup', arguments: { part: 2 } }, refs: { callId: 'spread', toolCallId: 'part-2' } })
    inputs.push({ kind: 'tool_result', payload: { name: 'lookup', result: 'one' }, refs: { toolCallId: 'part-1' } })
    inputs.push({ kind: 'tool_result', payload: { name: 'lookup', result: 'two' }, refs: { toolCallId: 'part-2' } })
    inputs.push({ kind: 'message', payload: { role: 'user', content: 'and now?' } })
    await stores.threads.appendMany(id, inputs)

    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 3000, reserveOutputTokens: 200 })
    const whole = await stores.threads.load(id)
    const window = await stores.threads.load(id, { window: { policy, counter } })
    // The window cuts the thread, yet holds the whole model call.
    expect(window.firstSeq).toBeGreaterThan(0)
    expect(window.firstSeq).toBeLessThanOrEqual(firstMember)
    const shape = (thread: typeof whole) => {
      const { messages, meta } = project({ thread, policy, counter })
      return { messages, includedSeqs: meta.includedSeqs, tokens: meta.tokens }
    }
    expect(shape(window)).toEqual(shape(whole))
    stores.db?.close()
  })
})
