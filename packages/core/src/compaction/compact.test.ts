import { beforeAll, describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import type { ThreadlensEvent } from '../events'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { compact, planCompaction } from './compact'
import { extractiveSummarizer } from './extractive-summarizer'
import type { Summarizer } from './summarizer'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

function tripThread(turns: number): Thread {
  const thread = createThread({ id: 'trip' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Plan a four-day trip to Norway in June for two, on a budget of 2000 EUR.' } })
  thread.append({
    kind: 'message',
    payload: { role: 'assistant', content: 'Great. I recommend Oslo and Bergen. We will take the train between them.' },
  })
  for (let turn = 0; turn < turns; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `What about day ${turn + 1}? Something in Bergen near Bryggen.` } })
    const refs = { callId: `c${turn}`, toolCallId: `t${turn}` }
    thread.append({ kind: 'tool_call', payload: { name: 'search', arguments: { query: `Bergen day ${turn + 1}` } }, refs })
    thread.append({ kind: 'tool_result', payload: { name: 'search', result: `Fløyen funicular, 150 NOK\nMore details…` }, refs })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `Day ${turn + 1}: we decided on the Fløyen funicular in Bergen.` } })
  }
  return thread
}

const policy = definePolicy({ maxInputTokens: 2000, reserveOutputTokens: 200, keepLastTurns: 2 })

describe('compact', () => {
  it('summarizes everything before the last keepLastTurns turns and appends a summary; history untouched', async () => {
    const thread = tripThread(10)
    const before = JSON.stringify(thread.entries)
    const events: ThreadlensEvent[] = []
    // A budget the trip no longer fits: the summary then stands in for what the window leaves out.
    const policy = definePolicy({ maxInputTokens: 600, reserveOutputTokens: 100, keepLastTurns: 2 })
    const result = await compact({ thread, policy, counter, summarizer: extractiveSummarizer(), onEvent: (event) => events.push(event) })
    expect(result.status).toBe('summarized')
    if (result.status !== 'summarized') return
    expect(JSON.stringify(thread.entries)).toBe(before)
    const lastTurns = thread.index.userSeqs.slice(-2)
    expect(result.fromSeq).toBe(0)
    expect(result.toSeq).toBe((lastTurns[0] as number) - 1)
    thread.appendMany(result.entries)
    const projected = project({ thread, policy, counter })
    expect(projected.meta.summaryUsed).toBe(true)
    expect(projected.meta.includedSeqs).toContain(lastTurns[0])
    expect(projected.messages[0]?.content).toContain('Plan a four-day trip to Norway')
    expect(result.tokensAfter).toBe(projected.meta.tokens.total)
    expect(result.tokensAfter).toBeLessThanOrEqual(500)
    // What was left out without it is now covered: newest entries verbatim, the rest summarized.
    expect(projected.meta.dropped.filter((range) => range.reason === 'budget')).toEqual([])
    expect(events.map((event) => event.type)).toEqual(['compaction-start', 'compaction-end'])
  })

  it("counts the request it is for: tools, memory and pending included, the caller's projection reused as the before", async () => {
    const thread = tripThread(10)
    const tools = [
      {
        name: 'search',
        description: 'Searches the web for places and prices.',
        parameters: { type: 'object', properties: { query: { type: 'string' } } },
      },
    ]
    const request = {
      thread,
      policy,
      counter,
      tools,
      memory: 'The user prefers trains and cheap food.',
      pending: [{ role: 'user' as const, content: 'And the last day?' }],
    }
    const before = project(request)
    const result = await compact({ ...request, summarizer: extractiveSummarizer(), projection: before })
    expect(result.status).toBe('summarized')
    if (result.status !== 'summarized') return
    // The meter's figure of this request, not of the thread alone.
    expect(result.tokensBefore).toBe(before.meta.tokens.total)
    expect(result.tokensBefore).toBeGreaterThan(project({ thread, policy, counter }).meta.tokens.total)
    thread.appendMany(result.entries)
    expect(result.tokensAfter).toBe(project(request).meta.tokens.total)
    // Given the before, compaction projects once (the after): a counter that counts every call it
    // gets tells — without it, compaction costs exactly one projection more.
    let counted = 0
    const countingCounter = new Proxy(counter, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key)
        return typeof value === 'function'
          ? (...args: unknown[]) => (counted++, (value as (...inner: unknown[]) => unknown).apply(target, args))
          : value
      },
    })
    const freshRequest = { ...request, thread: tripThread(10), counter: countingCounter }
    const freshBefore = project(freshRequest)
    const perProjection = counted
    counted = 0
    await compact({ ...freshRequest, summarizer: extractiveSummarizer(), projection: freshBefore })
    const withBefore = counted
    counted = 0
    await compact({ ...freshRequest, summarizer: extractiveSummarizer() })
    expect(perProjection).toBeGreaterThan(0)
    expect(counted - withBefore).toBe(perProjection)
  })

  it('continues the previous summary: the summarizer gets it and only what came after', async () => {
    const thread = tripThread(6)
    const seen: { previous: string | undefined; seqs: number[] }[] = []
    const recording: Summarizer = {
      name: 'recording',
      async summarize(input) {
        seen.push({ previous: input.previousSummary, seqs: input.entries.map((entry) => entry.seq) })
        return `summary ${seen.length}`
      },
    }
    const first = await compact({ thread, policy, counter, summarizer: recording })
    thread.appendMany(first.entries)
    for (let turn = 0; turn < 3; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `more ${turn}` } })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}` } })
    }
    const second = await compact({ thread, policy, counter, summarizer: recording })
    expect(second.status).toBe('summarized')
    expect(seen[1]?.previous).toContain('summary 1')
    const firstEnd = first.status === 'summarized' ? first.toSeq : -1
    expect(Math.min(...(seen[1]?.seqs ?? []))).toBeGreaterThan(firstEnd)
    if (second.status === 'summarized') expect(second.fromSeq).toBe(0)
  })

  it.each([
    ['throws', { name: 'broken', summarize: () => Promise.reject(new Error('HTTP 500: upstream exploded')) }, 'summarizer-error'],
    ['returns nothing', { name: 'empty', summarize: () => Promise.resolve('   ') }, 'empty'],
    ['returns too much', { name: 'verbose', summarize: () => Promise.resolve('word '.repeat(5000)) }, 'too-long'],
    ['never answers', { name: 'stuck', summarize: () => new Promise<string>(() => undefined) }, 'timeout'],
  ] as const)('when the summarizer %s: a failure marker, never a summary, history kept', async (_case, summarizer, reason) => {
    const thread = tripThread(8)
    const result = await compact({ thread, policy, counter, summarizer, timeoutMs: 50 })
    expect(result.status).toBe('failed')
    if (result.status !== 'failed') return
    expect(result.reason).toBe(reason)
    expect(result.entries).toHaveLength(1)
    expect(result.entries[0]).toMatchObject({ kind: 'context_op', payload: { op: 'compaction-failed' } })
    const before = project({ thread, policy, counter })
    thread.appendMany(result.entries)
    const after = project({ thread, policy, counter })
    expect(after.meta.summaryUsed).toBe(false)
    expect(after.meta.includedSeqs).toEqual(before.meta.includedSeqs)
  })

  it('reports an abort from the caller as aborted', async () => {
    const controller = new AbortController()
    const pending = compact({
      thread: tripThread(8),
      policy,
      counter,
      summarizer: { name: 'slow', summarize: () => new Promise<string>(() => undefined) },
      signal: controller.signal,
    })
    controller.abort(new Error('user left'))
    const result = await pending
    expect(result.status === 'failed' && result.reason).toBe('aborted')
  })

  it('never cuts into unresolved tool calls or splits a call from its results', () => {
    const thread = tripThread(4)
    const refs = { callId: 'open', toolCallId: 'open-1' }
    const openSeq = thread.append({ kind: 'tool_call', payload: { name: 'book', arguments: {} }, refs }).seq
    for (let turn = 0; turn < 3; turn++) thread.append({ kind: 'message', payload: { role: 'user', content: `later ${turn}` } })
    const plan = planCompaction(thread, definePolicy({ keepLastTurns: 1 }))
    expect(plan?.toSeq).toBe(openSeq - 1)
  })

  it('keeps a long task framing raw with a pin instead of quoting it', async () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: `Here is my whole itinerary: ${'Oslo Bergen Flåm '.repeat(300)}` } })
    for (let turn = 0; turn < 6; turn++) {
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `ok ${turn}` } })
      thread.append({ kind: 'message', payload: { role: 'user', content: `next ${turn}` } })
    }
    const result = await compact({
      thread,
      policy: definePolicy({ maxInputTokens: 8000, keepLastTurns: 1 }),
      counter,
      summarizer: extractiveSummarizer(),
      maxSummaryTokens: 200,
    })
    expect(result.entries[0]).toMatchObject({ kind: 'context_op', payload: { op: 'pin', target: 0 } })
    thread.appendMany(result.entries)
    expect(project({ thread, policy: definePolicy({ maxInputTokens: 8000 }), counter }).meta.includedSeqs).toContain(0)
  })

  it('has nothing to do when every turn is protected', async () => {
    const result = await compact({ thread: tripThread(1), policy: definePolicy({ keepLastTurns: 5 }), counter, summarizer: extractiveSummarizer() })
    expect(result.status).toBe('nothing-to-do')
  })
})

describe('extractiveSummarizer', () => {
  it('keeps goals, decisions, tool outcomes and names, within the token limit, deterministically', async () => {
    const thread = tripThread(3)
    const input = {
      previousSummary: undefined,
      entries: thread.entries,
      maxTokens: 400,
      countTokens: (text: string) => counter.count(text),
      signal: undefined,
    }
    const text = await extractiveSummarizer().summarize(input)
    expect(text).toContain('User goals:\n- Plan a four-day trip to Norway in June for two, on a budget of 2000 EUR.')
    expect(text).toContain('We will take the train between them.')
    expect(text).toContain('search({"query":"Bergen day 1"}) → Fløyen funicular, 150 NOK')
    expect(text).toMatch(/Names:\n- .*Bergen/)
    expect(counter.count(text)).toBeLessThanOrEqual(400)
    expect(await extractiveSummarizer().summarize(input)).toBe(text)
    const small = await extractiveSummarizer().summarize({ ...input, maxTokens: 60 })
    expect(counter.count(small)).toBeLessThanOrEqual(60)
    expect(small).toContain('Plan a four-day trip')
  })
})
