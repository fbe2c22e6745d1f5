import { createThread, createTokenCounter, definePolicy, project } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { contextMap } from './context-blocks'

async function bigToolResult() {
  const thread = createThread({ id: 'context-map', now: () => 1 })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'read the log please' } })
  thread.append({ kind: 'tool_call', payload: { name: 'read_file', arguments: { path: 'app.log' } }, refs: { callId: 'c1', toolCallId: 't1' } })
  thread.append({ kind: 'tool_result', payload: { name: 'read_file', result: 'error line\n'.repeat(800) }, refs: { toolCallId: 't1' } })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'The log repeats one error.' }, refs: { callId: 'c2' } })
  const counter = await createTokenCounter('heuristic')
  const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 8000, reserveOutputTokens: 1000, systemPrompt: 'You read logs.' })
  return project({
    thread,
    policy,
    counter,
    tools: [{ name: 'read_file', description: 'reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  })
}

describe('contextMap', () => {
  it('sizes every part as the meter does, against the input budget, with reserved output beside it', async () => {
    const result = await bigToolResult()
    const model = contextMap(result)
    expect(model.budget).toBe(7000)
    expect(model.reserved).toBe(1000)
    expect(model.used).toBe(result.meta.tokens.total)
    expect(model.groups.map((group) => group.part)).toEqual(['tools', 'system', 'history', 'free'])
    // The tiles add up to the input budget: one denominator.
    const tiles = model.groups.flatMap((group) => group.blocks).reduce((sum, block) => sum + block.tokens, 0)
    expect(tiles).toBe(7000)
    for (const group of model.groups) expect(group.blocks.reduce((sum, block) => sum + block.tokens, 0)).toBe(group.tokens)
  })

  it('makes the one tool result that takes most of the history the largest consumer', async () => {
    const result = await bigToolResult()
    const model = contextMap(result)
    const top = model.largest[0]
    expect(top?.label).toBe('tool · read_file')
    expect(top?.seqs).toEqual([2])
    expect(top?.preview.startsWith('error line error line')).toBe(true)
    const history = model.groups.find((group) => group.part === 'history')
    expect(history?.blocks[0]).toBe(top)
    expect((top?.tokens ?? 0) / (history?.tokens ?? 1)).toBeGreaterThan(0.9)
  })

  it('merges the smallest messages of a part past blocksPerPart into one tile that keeps their entries', async () => {
    const thread = createThread({ id: 'many', now: () => 1 })
    for (let index = 0; index < 40; index++)
      thread.append({
        kind: 'message',
        payload: { role: index % 2 === 0 ? 'user' : 'assistant', content: `message ${index} ${'word '.repeat(index)}` },
      })
    const counter = await createTokenCounter('heuristic')
    const result = project({ thread, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 100_000, reserveOutputTokens: 1000 }), counter })
    const model = contextMap(result, { blocksPerPart: 10 })
    const history = model.groups.find((group) => group.part === 'history')
    expect(history?.blocks.length).toBe(10)
    const rest = history?.blocks.find((block) => block.key === 'history-rest')
    expect(rest?.label).toBe('31 smaller messages')
    expect(rest?.seqs.length).toBe(31)
    expect(history?.blocks.reduce((sum, block) => sum + block.seqs.length, 0)).toBe(40)
  })

  it('on overflow the box stands for the request, and nothing is free', async () => {
    const thread = createThread({ id: 'overflow', now: () => 1 })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'word '.repeat(2000) } })
    const counter = await createTokenCounter('heuristic')
    const result = project({ thread, policy: definePolicy({ tokenizer: 'heuristic', maxInputTokens: 1200, reserveOutputTokens: 200 }), counter })
    const model = contextMap(result)
    expect(model.overflow).toBe(true)
    expect(model.scale).toBe(result.meta.tokens.total)
    expect(model.groups.some((group) => group.part === 'free')).toBe(false)
  })
})
