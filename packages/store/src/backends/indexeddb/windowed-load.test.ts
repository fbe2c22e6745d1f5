import { definePolicy, project, type EntryInput, type PolicyOptions, type ProjectionResult } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { openTestStores } from '../../testing/test-database'
import { deterministicOptions, testCounter } from '../../testing/thread-store-contract'

const user = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'user', content } })
const assistant = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'assistant', content } })
const words = (count: number, word = 'lorem') => Array.from({ length: count }, () => word).join(' ')

/** `count` turns of a question, a search call with a long result, and a short answer. */
function toolTurns(count: number): EntryInput[] {
  return Array.from({ length: count }, (_, turn): EntryInput[] => [
    user(words(4, `q${turn}`)),
    { kind: 'tool_call', payload: { name: 'search', arguments: { turn } }, refs: { callId: `c${turn}`, toolCallId: `t${turn}` } },
    { kind: 'tool_result', payload: { name: 'search', result: words(80) }, refs: { callId: `c${turn}`, toolCallId: `t${turn}` } },
    assistant(words(4, `a${turn}`)),
  ]).flat()
}

const shape = (result: ProjectionResult) => ({ messages: result.messages, includedSeqs: result.meta.includedSeqs, tokens: result.meta.tokens })

/** Loads the thread whole and windowed, projects both, and returns the window's first seq. */
async function compare(
  inputs: readonly EntryInput[],
  options: PolicyOptions,
): Promise<{ firstSeq: number; whole: ProjectionResult; window: ProjectionResult }> {
  const { threads, db } = openTestStores('window-cases', deterministicOptions())
  const { id } = await threads.create()
  await threads.appendMany(id, inputs)
  const policy = definePolicy(options)
  const whole = await threads.load(id)
  const windowed = await threads.load(id, { window: { policy, counter: testCounter } })
  const result = {
    firstSeq: windowed.firstSeq,
    whole: project({ thread: whole, policy, counter: testCounter }),
    window: project({ thread: windowed, policy, counter: testCounter }),
  }
  db.close()
  return result
}

// Cases the random property rarely reaches: each one fails if its part of the window rule is removed.
describe('windowed load', () => {
  it('reaches back to the latest user message however far it is', async () => {
    const inputs = [user('old question'), assistant('old answer'), user('the question'), ...Array.from({ length: 60 }, () => assistant(words(30)))]
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 400, reserveOutputTokens: 0 })
    expect(firstSeq).toBe(2)
    expect(shape(window)).toEqual(shape(whole))
    expect(window.meta.includedSeqs).toContain(2)
  })

  it('does not count tool calls a drop policy leaves out', async () => {
    const calls: EntryInput[] = Array.from({ length: 30 }, (_, position) => ({
      kind: 'tool_call',
      payload: { name: 'search', arguments: { query: words(20) } },
      refs: { toolCallId: `t${position}` },
    }))
    const inputs = [
      ...Array.from({ length: 20 }, (_, turn) => (turn % 2 === 0 ? user(words(5, `q${turn}`)) : assistant(words(5, `a${turn}`)))),
      ...calls,
    ]
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 120, reserveOutputTokens: 0, unresolvedToolCalls: 'drop' })
    expect(firstSeq).toBeGreaterThan(0)
    expect(firstSeq).toBeLessThan(18)
    expect(shape(window)).toEqual(shape(whole))
  })

  it('counts tool units at nothing when a reducing policy may shorten or leave them out', async () => {
    // Old turns with long tool results: boundary isolation leaves their calls and results out, so the
    // projection reaches much further back than a count of the full results would suggest.
    const inputs = toolTurns(12)
    const { whole, window } = await compare(inputs, { maxInputTokens: 400, reserveOutputTokens: 0, toolTrace: 'boundary', keepLastTurns: 1 })
    expect(whole.meta.includedSeqs.length).toBeGreaterThan(20)
    expect(shape(window)).toEqual(shape(whole))
  })

  it('counts a masked tool result at its overhead, not nothing: a masking policy still reads a small window', async () => {
    const inputs = toolTurns(60)
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 400, reserveOutputTokens: 0, toolTrace: 'masked', keepLastTurns: 1 })
    expect(shape(window)).toEqual(shape(whole))
    // Counting masked results at nothing would reach back to about seq 124 here; at their overhead, 175.
    expect(firstSeq).toBeGreaterThan(160)
  })

  it('reads into the summarized range when the summary itself cannot fit', async () => {
    const inputs: EntryInput[] = [
      ...Array.from({ length: 40 }, (_, turn) => (turn % 2 === 0 ? user(`q${turn}`) : assistant(`a${turn}`))),
      { kind: 'summary', payload: { fromSeq: 0, toSeq: 37, content: words(400) } },
      user('now'),
      assistant('ok'),
    ]
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 100, reserveOutputTokens: 0 })
    expect(whole.meta.summaryUsed).toBe(false)
    expect(firstSeq).toBeLessThan(37)
    expect(shape(window)).toEqual(shape(whole))
  })

  it('reads into what the summary covers only as far as the budget reaches, and the summary itself', async () => {
    const inputs: EntryInput[] = [
      ...Array.from({ length: 400 }, (_, turn) => (turn % 2 === 0 ? user(`q${turn}`) : assistant(`a${turn}`))),
      { kind: 'summary', payload: { fromSeq: 0, toSeq: 389, content: 'what happened' } },
      ...Array.from({ length: 6 }, (_, turn) => (turn % 2 === 0 ? user(`r${turn}`) : assistant(`s${turn}`))),
    ]
    // The conversation does not fit: the summary stands in for the oldest entries, the newest covered ones go verbatim.
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 1000, reserveOutputTokens: 0 })
    expect(whole.meta.summaryUsed).toBe(true)
    expect(whole.meta.includedSeqs.some((seq) => seq <= 389 && seq !== 400)).toBe(true)
    expect(firstSeq).toBeGreaterThan(0)
    expect(firstSeq).toBeLessThan(389)
    expect(shape(window)).toEqual(shape(whole))
  })

  it('returns the newest entries only after a reset', async () => {
    const inputs: EntryInput[] = [user('a'), assistant('b'), { kind: 'context_op', payload: { op: 'reset', reason: 'new topic' } }, user('c')]
    const { firstSeq, whole, window } = await compare(inputs, { maxInputTokens: 4000, reserveOutputTokens: 0 })
    expect(firstSeq).toBe(3)
    expect(shape(window)).toEqual(shape(whole))
  })

  it("leaves out a stored entry past the thread row's last seq, as a read of the whole thread does", async () => {
    const { threads, db } = openTestStores('window-past-last', deterministicOptions())
    const { id } = await threads.create()
    await threads.appendMany(id, [user('q'), assistant('a'), user('r')])
    const last = await db.entries.get([id, 2])
    // Damage no write makes: an entry the row does not count.
    await db.entries.put({ ...(last as NonNullable<typeof last>), seq: 3 })
    const policy = definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 0 })
    const whole = await threads.load(id)
    const windowed = await threads.load(id, { window: { policy, counter: testCounter } })
    expect(whole.nextSeq).toBe(3)
    expect(windowed.nextSeq).toBe(3)
    expect(windowed.entries.map((entry) => entry.seq)).toEqual([0, 1, 2])
    db.close()
  })
})
