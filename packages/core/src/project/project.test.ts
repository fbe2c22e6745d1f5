import { beforeAll, describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { createTokenCounter, customTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { project } from './project'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

function conversation(turns: number): Thread {
  const thread = createThread({ id: 't1', now: () => 0 })
  for (let turn = 0; turn < turns; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn}: how far is it to the next town?` } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}: about ${turn + 3} kilometres along the river path.` } })
  }
  return thread
}

function withToolCall(thread: Thread, callId: string, calls: { id: string; result?: string; error?: string }[], text = ''): void {
  if (text !== '') thread.append({ kind: 'message', payload: { role: 'assistant', content: text }, refs: { callId } })
  for (const call of calls) {
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: call.id } }, refs: { callId, toolCallId: call.id } })
  }
  for (const call of calls) {
    if (call.result !== undefined) {
      thread.append({ kind: 'tool_result', payload: { name: 'weather', result: call.result }, refs: { callId, toolCallId: call.id } })
    } else if (call.error !== undefined) {
      thread.append({ kind: 'tool_result', payload: { name: 'weather', error: call.error }, refs: { callId, toolCallId: call.id } })
    }
  }
}

describe('project', () => {
  it('projects a short conversation whole, system prompt first', () => {
    const thread = conversation(2)
    const policy = definePolicy({ systemPrompt: 'Be brief.' })
    const result = project({ thread, policy, counter })
    expect(result.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant'])
    expect(result.meta.includedSeqs).toEqual([0, 1, 2, 3])
    expect(result.meta.dropped).toEqual([])
    expect(result.meta.truncated).toBe(false)
    expect(result.meta.tokens.total).toBe(result.meta.tokens.system + result.meta.tokens.history)
    expect(result.meta.counter).toEqual({ id: 'o200k_base', exact: true })
  })

  it('keeps the newest entries that fit, contiguous, and reports the rest as dropped by budget', () => {
    const thread = conversation(40)
    const policy = definePolicy({ maxInputTokens: 300, reserveOutputTokens: 50 })
    const result = project({ thread, policy, counter })
    expect(result.meta.tokens.total).toBeLessThanOrEqual(250)
    const kept = result.meta.includedSeqs
    expect(kept[kept.length - 1]).toBe(79)
    for (let position = 1; position < kept.length; position++) expect(kept[position]).toBe((kept[position - 1] as number) + 1)
    expect(result.meta.dropped).toEqual([{ fromSeq: 0, toSeq: (kept[0] as number) - 1, reason: 'budget' }])
    expect(result.meta.truncated).toBe(true)
    expect(result.meta.needsSummaryReason).toBe('history-dropped')
  })

  it('folds one model call into one assistant message followed by its results', () => {
    const thread = conversation(1)
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather in Oslo and Bergen?' } })
    withToolCall(
      thread,
      'call-1',
      [
        { id: 'oslo', result: '3°C' },
        { id: 'bergen', error: 'timeout' },
      ],
      'Checking both.',
    )
    const result = project({ thread, policy: definePolicy({}), counter })
    const tail = result.messages.slice(-3)
    expect(tail[0]).toEqual({
      role: 'assistant',
      content: 'Checking both.',
      toolCalls: [
        { id: 'oslo', name: 'weather', arguments: { city: 'oslo' } },
        { id: 'bergen', name: 'weather', arguments: { city: 'bergen' } },
      ],
    })
    expect(tail[1]).toEqual({ role: 'tool', toolCallId: 'oslo', name: 'weather', content: '3°C' })
    expect(tail[2]).toEqual({ role: 'tool', toolCallId: 'bergen', name: 'weather', content: 'Error: timeout', isError: true })
  })

  it('drops a model call and all its results together when the unit does not fit', () => {
    const thread = createThread({ id: 't' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Read the report.' } })
    withToolCall(thread, 'call-1', [{ id: 'read', result: 'x'.repeat(4000) }])
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'The report is long.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Summarize it.' } })
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 200, reserveOutputTokens: 0 }), counter })
    expect(result.messages.some((message) => message.role === 'tool')).toBe(false)
    expect(result.meta.includedSeqs).toEqual([3, 4])
    expect(result.meta.dropped).toEqual([{ fromSeq: 0, toSeq: 2, reason: 'budget' }])
  })

  it('answers an unresolved call with a synthetic interruption, or drops it, by policy', () => {
    const thread = createThread({ id: 't' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Book it.' } })
    withToolCall(thread, 'call-1', [{ id: 'book' }])
    const interrupted = project({ thread, policy: definePolicy({ unresolvedToolCalls: 'interrupt' }), counter })
    expect(interrupted.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'book', isError: true })
    expect(interrupted.meta.messages.at(-1)?.synthetic).toBe('interrupted')
    expect(interrupted.meta.unresolvedToolCalls).toEqual([{ toolCallId: 'book', name: 'weather', seq: 1 }])
    const dropped = project({ thread, policy: definePolicy({ unresolvedToolCalls: 'drop' }), counter })
    expect(dropped.messages.map((message) => message.role)).toEqual(['user'])
    expect(dropped.meta.dropped).toEqual([{ fromSeq: 1, toSeq: 1, reason: 'unresolved' }])
  })

  it('sends no summary when everything it covers fits: the entries go as they are', () => {
    const thread = conversation(5)
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 5, content: 'The user asked about distances.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'And the ferry?' } })
    const result = project({ thread, policy: definePolicy({ systemPrompt: 'S' }), counter })
    expect(result.meta.summaryUsed).toBe(false)
    expect(result.meta.summary).toBeUndefined()
    expect(result.meta.includedSeqs).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11])
    expect(result.meta.dropped).toEqual([{ fromSeq: 10, toSeq: 10, reason: 'unneeded' }])
    expect(result.messages.some((message) => message.content.includes('distances'))).toBe(false)
  })

  it('sends the summary for the covered entries that do not fit, and the newest ones that do verbatim', () => {
    const thread = conversation(5)
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 5, content: 'The user asked about distances.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'And the ferry?' } })
    const whole = project({ thread, policy: definePolicy({ systemPrompt: 'S' }), counter }).meta.tokens.total
    // Room for the summary and a few of the newest entries, not for all of them.
    const result = project({ thread, policy: definePolicy({ systemPrompt: 'S', maxInputTokens: whole - 40, reserveOutputTokens: 0 }), counter })
    expect(result.messages[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation:\nThe user asked about distances.' })
    expect(result.meta.summary).toEqual({ seq: 10, fromSeq: 0, toSeq: 5 })
    const history = result.meta.includedSeqs.filter((seq) => seq !== 10 && seq !== 11)
    // Newest first and contiguous, reaching into the covered range 0..5.
    expect(history.length).toBeGreaterThan(4)
    expect(history).toEqual(Array.from({ length: history.length }, (_, position) => 10 - history.length + position))
    expect(history[0]).toBeLessThanOrEqual(5)
    expect(result.meta.dropped).toEqual([])
    expect(result.meta.tokens.total).toBeLessThanOrEqual(whole - 40)
    expect(result.meta.messages[1]?.segment).toBe('summary')
  })

  it('hides everything before the newest reset', () => {
    const thread = conversation(3)
    thread.append({ kind: 'context_op', payload: { op: 'reset', reason: 'new topic' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Fresh start.' } })
    const result = project({ thread, policy: definePolicy({}), counter })
    expect(result.messages).toEqual([{ role: 'user', content: 'Fresh start.' }])
    expect(result.meta.dropped).toEqual([
      { fromSeq: 0, toSeq: 5, reason: 'reset' },
      { fromSeq: 6, toSeq: 6, reason: 'applied' },
    ])
  })

  it('keeps pinned entries outside the window, and applies unpin later', () => {
    const thread = conversation(10)
    thread.append({ kind: 'context_op', payload: { op: 'pin', target: 0, reason: 'task framing' } })
    const policy = definePolicy({ maxTurns: 2 })
    const pinned = project({ thread, policy, counter })
    expect(pinned.meta.includedSeqs).toEqual([0, 16, 17, 18, 19])
    expect(pinned.meta.pinnedSeqs).toEqual([0])
    expect(pinned.meta.dropped).toEqual([
      { fromSeq: 1, toSeq: 15, reason: 'window' },
      { fromSeq: 20, toSeq: 20, reason: 'applied' },
    ])
    thread.append({ kind: 'context_op', payload: { op: 'unpin', target: 0, reason: 'done' } })
    expect(project({ thread, policy, counter }).meta.includedSeqs).toEqual([16, 17, 18, 19])
  })

  it('never drops the latest user message: it reports overflow instead', () => {
    const thread = conversation(2)
    thread.append({ kind: 'message', payload: { role: 'user', content: 'word '.repeat(500) } })
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 100, reserveOutputTokens: 10 }), counter })
    expect(result.meta.overflow).toBe(true)
    expect(result.meta.needsSummaryReason).toBe('overflow')
    expect(result.meta.includedSeqs).toEqual([4])
    expect(result.meta.budget.free).toBeLessThan(0)
  })

  it('counts pending messages and tool schemas against the budget', () => {
    const thread = conversation(3)
    const tools = [
      { name: 'weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    ]
    const pending = [{ role: 'user', content: 'What now?' }] as const
    const result = project({ thread, policy: definePolicy({}), counter, pending, tools })
    expect(result.meta.tokens.tools).toBeGreaterThan(10)
    expect(result.meta.tokens.pending).toBe(3 + counter.count('What now?'))
    expect(result.messages.at(-1)).toEqual({ role: 'user', content: 'What now?' })
    expect(result.meta.messages.at(-1)?.segment).toBe('pending')
  })

  it('accepts a plain entry array and gives the same result as the thread', () => {
    const thread = conversation(4)
    const policy = definePolicy({ maxInputTokens: 120, reserveOutputTokens: 0 })
    expect(JSON.stringify(project({ thread: [...thread.entries], policy, counter }))).toBe(JSON.stringify(project({ thread, policy, counter })))
  })

  it('counts each entry once: a second projection tokenizes nothing new', () => {
    const thread = conversation(20)
    let tokenized = 0
    const counting = customTokenCounter(
      'counting',
      (text) => {
        tokenized++
        return counter.count(text)
      },
      true,
    )
    const policy = definePolicy({ systemPrompt: 'Be brief.' })
    const first = project({ thread, policy, counter: counting })
    const afterFirst = tokenized
    expect(afterFirst).toBeGreaterThanOrEqual(40)
    const second = project({ thread, policy, counter: counting })
    expect(tokenized).toBe(afterFirst)
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    thread.append({ kind: 'message', payload: { role: 'user', content: 'one more' } })
    project({ thread, policy, counter: counting })
    expect(tokenized).toBe(afterFirst + 1)
  })
})

describe('cache-friendly windows', () => {
  it('never cut the turn in progress, even when its tool results are bigger than a chunk', async () => {
    const counter = await createTokenCounter('o200k_base')
    const thread = createThread({ id: 'big-tools' })
    for (let turn = 0; turn < 24; turn++) {
      thread.append({
        kind: 'message',
        payload: { role: 'user', content: `question ${turn}: ${'which trail is best in late spring, and why? '.repeat(4)}` },
      })
      thread.append({
        kind: 'message',
        payload: { role: 'assistant', content: `answer ${turn}: ${'the coastal trail, because the snow is gone. '.repeat(4)}` },
      })
    }
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Read both files.' } })
    for (const file of ['a', 'b']) {
      const refs = { callId: `read-${file}`, toolCallId: `t-${file}` }
      thread.append({ kind: 'tool_call', payload: { name: 'read_file', arguments: { path: file } }, refs })
      thread.append({ kind: 'tool_result', payload: { name: 'read_file', result: 'lorem ipsum dolor '.repeat(900) }, refs })
    }
    const policy = definePolicy({ maxInputTokens: 8192, reserveOutputTokens: 1024, cacheFriendly: true })
    const plain = project({ thread, policy: definePolicy({ maxInputTokens: 8192, reserveOutputTokens: 1024 }), counter })
    const cached = project({ thread, policy, counter })
    // The case only matters when the window had to move: the history alone outgrows the budget.
    expect(plain.meta.truncated).toBe(true)
    const lastTurn = thread.index.userSeqs.at(-1) as number
    for (let seq = lastTurn; seq < thread.nextSeq; seq++) {
      expect(plain.meta.includedSeqs).toContain(seq)
      expect(cached.meta.includedSeqs).toContain(seq)
    }
  })

  it('keep the window start still while the thread grows by less than a chunk', async () => {
    const counter = await createTokenCounter('o200k_base')
    const thread = createThread({ id: 'grow' })
    const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100, cacheFriendly: true })
    const starts: number[] = []
    const keys: string[] = []
    for (let turn = 0; turn < 60; turn++) {
      const pending = [{ role: 'user' as const, content: `question ${turn} about the route along the fjord` }]
      const before = project({ thread, policy, counter, pending })
      thread.append({ kind: 'message', payload: pending[0] as { role: 'user'; content: string } })
      const after = project({ thread, policy, counter })
      // The pending message, once appended, does not move the window.
      expect(after.meta.includedSeqs[0]).toBe(before.meta.includedSeqs[0] ?? after.meta.includedSeqs[0])
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}: take the coastal path, about ${turn + 2} km.` } })
      starts.push(after.meta.includedSeqs[0] as number)
      keys.push(after.meta.prefixKey)
    }
    const moves = starts.filter((start, position) => position > 0 && start !== starts[position - 1]).length
    const slidingMoves = (() => {
      const sliding = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100 })
      let previous = -1
      let count = 0
      for (let turn = 1; turn <= 60; turn++) {
        const start = project({ thread: thread.slice(0, turn * 2 - 2), policy: sliding, counter }).meta.includedSeqs[0] ?? 0
        if (previous !== -1 && start !== previous) count++
        previous = start
      }
      return count
    })()
    expect(moves).toBeGreaterThan(0)
    expect(moves * 3).toBeLessThan(slidingMoves)
    // From the second call on (the first has nothing before its question), the key changes exactly when the start does.
    for (let position = 2; position < keys.length; position++) {
      expect(keys[position] === keys[position - 1]).toBe(starts[position] === starts[position - 1])
    }
  })
})

describe('needsSummary', () => {
  it('asks for a summary when a cache-friendly window leaves history out', async () => {
    const counter = await createTokenCounter('o200k_base')
    const thread = createThread({ id: 'long' })
    for (let turn = 0; turn < 80; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn} about the ferry timetable` } })
      thread.append({
        kind: 'message',
        payload: { role: 'assistant', content: `answer ${turn}: the ferry leaves at ${(turn % 12) + 8}:15 from pier ${turn % 4}.` },
      })
    }
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 100, cacheFriendly: true }), counter })
    expect(result.meta.dropped.some((range) => range.reason === 'cache-window')).toBe(true)
    expect(result.meta.needsSummaryReason).toBe('history-dropped')
  })
})
