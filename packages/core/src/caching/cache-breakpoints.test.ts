import { describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { openAIChatCacheFields, openAITakesCacheBreakpoints, toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { definePolicy, type PolicyOptions } from '../policy/policy'
import { customTokenCounter, heuristicCount } from '../tokens/token-counter'
import { anthropicCacheBlocks, openAICacheBlocks } from './cache-blocks'
import { simulatePromptCache } from './simulate-prompt-cache'
import { cacheBreakpoints } from './cache-breakpoints'
import { project } from '../project/project'

const counter = customTokenCounter('heuristic', heuristicCount, false)
const tools = [{ name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] as const

/** `turns` turns, each a question, one weather call with a long result, and an answer. */
function toolThread(turns: number): Thread {
  const thread = createThread({ id: 'trip-planning', now: () => 0 })
  for (let turn = 0; turn < turns; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `How is the weather on day ${turn}?` } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { day: turn } }, refs: { callId: `c${turn}`, toolCallId: `t${turn}` } })
    thread.append({
      kind: 'tool_result',
      payload: { name: 'weather', result: `forecast ${turn}: ${'rain and wind '.repeat(40)}` },
      refs: { callId: `c${turn}`, toolCallId: `t${turn}` },
    })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `Day ${turn}: pack a raincoat.` }, refs: { callId: `a${turn}` } })
  }
  return thread
}

function projectWith(thread: Thread, options: PolicyOptions) {
  return project({ thread, policy: definePolicy({ systemPrompt: 'You plan trips.', ...options }), counter, tools })
}

describe('cache breakpoints', () => {
  it('marks tools + system and the end of the request by default, and the formats carry them', () => {
    const result = projectWith(toolThread(2), {})
    expect(cacheBreakpoints(result).anthropic).toEqual([
      { at: 0, reason: 'tools-and-system', ttl: '5m' },
      { at: result.messages.length - 1, reason: 'request-end', ttl: '5m' },
    ])
    const request = toAnthropicMessages(result)
    expect(request.system).toEqual([{ type: 'text', text: 'You plan trips.', cache_control: { type: 'ephemeral' } }])
    expect(request.messages.at(-1)?.content.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } })
    expect(anthropicMessagesProblems(request)).toEqual([])
    expect(openAIChatCacheFields(result)).toEqual({ prompt_cache_key: 'trip-planning' })
  })

  it('gives the long TTL to tools, system and the stable base only; history breakpoints stay at 5 minutes', () => {
    const thread = toolThread(3)
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 3, content: 'Day 0: rain.' } })
    // The turn window leaves turn 0 out, so its summary is sent (a summary stands in only for what does not fit).
    const result = projectWith(thread, { cache: { ttl: '1h' }, maxTurns: 2 })
    expect(cacheBreakpoints(result).anthropic.map(({ reason, ttl }) => [reason, ttl])).toEqual([
      ['tools-and-system', '1h'],
      ['stable-base', '1h'],
      ['request-end', '5m'],
    ])
    const request = toAnthropicMessages(result)
    expect(request.system).toEqual([
      { type: 'text', text: 'You plan trips.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Summary of the earlier conversation:\nDay 0: rain.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ])
    expect(anthropicMessagesProblems(request)).toEqual([])
  })

  it('adds the newest message reductions will not rewrite when the policy reduces, at most 4 in all', () => {
    const result = projectWith(toolThread(6), { toolTrace: 'masked', keepLastTurns: 2, cache: { reduceEveryTurns: 1 } })
    const breakpoints = cacheBreakpoints(result).anthropic
    expect(breakpoints.map((breakpoint) => breakpoint.reason)).toEqual(['tools-and-system', 'newest-stable', 'request-end'])
    const stable = breakpoints[1]?.at as number
    // The stable one is the last message before the protected zone: the assistant's answer of turn 3.
    expect(result.messages[stable]).toEqual({ role: 'assistant', content: 'Day 3: pack a raincoat.' })
    expect(result.meta.messages[stable]?.seqs.every((seq) => seq < result.meta.cache.reductionFloor)).toBe(true)
    expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])
  })

  it('automatic mode: the tools + system breakpoint plus the top-level marker; off: none, and the old bytes', () => {
    const thread = toolThread(2)
    const automatic = toAnthropicMessages(projectWith(thread, { cache: { anthropic: 'auto' } }))
    expect(automatic.cache_control).toEqual({ type: 'ephemeral' })
    expect(JSON.stringify(automatic).split('"cache_control"').length - 1).toBe(2)
    const off = projectWith(thread, { cache: { anthropic: 'off', openAIKey: false } })
    expect(cacheBreakpoints(off).anthropic).toEqual([])
    expect(JSON.stringify(toAnthropicMessages(off))).not.toContain('cache_control')
    expect(toAnthropicMessages(off).system).toBe('You plan trips.')
    expect(openAIChatCacheFields(off)).toEqual({})
  })

  it('bridges a turn of more blocks than the lookback: the call after 12 parallel tool calls still reads the previous request', () => {
    const thread = createThread({ id: 'fan-out', now: () => 0 })
    const policy = definePolicy({ systemPrompt: 'You plan trips. '.repeat(300) })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Compare the weather in twelve cities.' } })
    const first = project({ thread, policy, counter, tools })
    const cities = Array.from({ length: 12 }, (_, index) => `city-${index}`)
    for (const city of cities)
      thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city } }, refs: { callId: 'c1', toolCallId: city } })
    for (const city of cities)
      thread.append({ kind: 'tool_result', payload: { name: 'weather', result: `${city}: rain` }, refs: { callId: 'c1', toolCallId: city } })
    const second = project({ thread, policy, counter, tools })
    expect(cacheBreakpoints(second).anthropic.map((breakpoint) => breakpoint.reason)).toEqual(['tools-and-system', 'lookback-bridge', 'request-end'])
    expect(second.messages[cacheBreakpoints(second).anthropic[1]?.at as number]).toEqual({
      role: 'user',
      content: 'Compare the weather in twelve cities.',
    })
    expect(anthropicMessagesProblems(toAnthropicMessages(second))).toEqual([])
    const count = (text: string): number => counter.countCached(text)
    const usages = simulatePromptCache(
      [first, second].map((result, call) => ({ at: call * 20_000, ...anthropicCacheBlocks(toAnthropicMessages(result), count) })),
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    )
    // The whole first request is read; without the bridge only the system prompt would be.
    expect(usages[1]?.readTokens).toBe(usages[0]?.writeTokens)
    expect(usages[1]?.readTokens).toBeGreaterThan(count(policy.systemPrompt as string))
  })

  it('puts the tools + system breakpoint on the tools when there is no system prompt', () => {
    const result = project({ thread: toolThread(1), policy: definePolicy(), counter, tools })
    expect(cacheBreakpoints(result).anthropic[0]).toEqual({ at: 'tools', reason: 'tools-and-system', ttl: '5m' })
  })

  it('with a cache-friendly window, reduces in batches: every reduceEveryTurns turns and when the window moves, never in between', () => {
    const policy = {
      maxInputTokens: 2_000,
      reserveOutputTokens: 200,
      cacheFriendly: true,
      toolTrace: 'masked',
      keepLastTurns: 1,
      cache: { reduceEveryTurns: 3 },
    } as const
    const thread = createThread({ id: 'grow', now: () => 0 })
    const grown = toolThread(40)
    let previousFloor: number | undefined
    let previousStart: number | undefined
    const moves = { floor: 0, window: 0, batch: 0 }
    let reducedCalls = 0
    for (const entry of grown.entries) {
      thread.append({ kind: entry.kind, payload: entry.payload, refs: entry.refs } as Parameters<Thread['append']>[0])
      const result = projectWith(thread, policy)
      const start = result.meta.messages.find((info) => info.segment === 'history')?.seqs[0]
      const turns = thread.index.userSeqs.length
      const batchBoundary = entry.kind === 'message' && entry.payload.role === 'user' && turns % 3 === 0
      if (turns < 3 && previousStart === start) expect(result.meta.reduced).toEqual([])
      if (previousFloor !== undefined && result.meta.cache.reductionFloor !== previousFloor) {
        moves.floor++
        const windowMoved = start !== previousStart
        if (windowMoved) moves.window++
        if (batchBoundary) moves.batch++
        // The floor moves only at a batch boundary or a window move: never between two.
        expect(windowMoved || batchBoundary).toBe(true)
      }
      if (result.meta.reduced.length > 0) reducedCalls++
      previousFloor = result.meta.cache.reductionFloor
      previousStart = start
    }
    expect(moves.batch).toBeGreaterThan(2)
    expect(moves.window).toBeGreaterThan(0)
    expect(reducedCalls).toBeGreaterThan(0)
  })
})

describe('OpenAI explicit cache breakpoints (GPT-5.6 and later)', () => {
  const marker = { mode: 'explicit' }

  it('marks the system prompt as one text part when asked, and leaves the implicit breakpoint to OpenAI', () => {
    const result = projectWith(toolThread(2), {})
    expect(cacheBreakpoints(result).openAI).toEqual([{ at: 0, reason: 'tools-and-system', ttl: '5m' }])
    const marked = toOpenAIChat(result, { cacheBreakpoints: true })
    expect(marked[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'You plan trips.', prompt_cache_breakpoint: marker }] })
    expect(JSON.stringify(marked).split('prompt_cache_breakpoint').length - 1).toBe(1)
    expect(openAIChatProblems(marked)).toEqual([])
    // Without the option (older models, other servers) the bytes are the plain strings.
    expect(toOpenAIChat(result)[0]).toEqual({ role: 'system', content: 'You plan trips.' })
    expect(JSON.stringify(toOpenAIChat(result))).not.toContain('prompt_cache_breakpoint')
  })

  it('moves a breakpoint that falls on assistant content back to the nearest input message, at most 3', () => {
    const thread = toolThread(6)
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 3, content: 'Day 0: rain.' } })
    const result = projectWith(thread, { toolTrace: 'masked', keepLastTurns: 2, maxTurns: 5 })
    const anthropic = cacheBreakpoints(result).anthropic.map((breakpoint) => breakpoint.reason)
    expect(anthropic).toEqual(['tools-and-system', 'stable-base', 'newest-stable', 'request-end'])
    const openAI = cacheBreakpoints(result).openAI
    expect(openAI.map((breakpoint) => breakpoint.reason)).toEqual(['tools-and-system', 'stable-base', 'newest-stable'])
    // The stable Anthropic breakpoint sits on the assistant's answer of turn 3; OpenAI's on the tool result before it.
    const stable = cacheBreakpoints(result).anthropic[2]?.at as number
    expect(result.messages[stable]?.role).toBe('assistant')
    expect(openAI[2]?.at).toBe(stable - 1)
    expect(result.messages[stable - 1]?.role).toBe('tool')
    const marked = toOpenAIChat(result, { cacheBreakpoints: true })
    expect(openAIChatProblems(marked)).toEqual([])
    expect(marked[stable - 1]).toMatchObject({ role: 'tool', content: [{ type: 'text', prompt_cache_breakpoint: marker }] })
  })

  it('policy.cache.openAI off places none; Anthropic off leaves OpenAI on', () => {
    const thread = toolThread(2)
    expect(cacheBreakpoints(projectWith(thread, { cache: { openAI: 'off' } })).openAI).toEqual([])
    const anthropicOff = projectWith(thread, { cache: { anthropic: 'off' } })
    expect(cacheBreakpoints(anthropicOff).anthropic).toEqual([])
    expect(cacheBreakpoints(anthropicOff).openAI.map((breakpoint) => breakpoint.reason)).toEqual(['tools-and-system'])
  })

  it('a growing thread on GPT-5.6 reads the previous request at every turn, as the simulator bills it', () => {
    const policy = definePolicy({ systemPrompt: 'You plan trips. '.repeat(400) })
    const thread = createThread({ id: 'growing', now: () => 0 })
    const count = (text: string): number => counter.countCached(text)
    const requests = []
    for (let turn = 0; turn < 4; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `Question ${turn}: ${'details '.repeat(30)}` } })
      requests.push({
        at: turn * 60_000,
        ...openAICacheBlocks({ messages: toOpenAIChat(project({ thread, policy, counter }), { cacheBreakpoints: true }) }, count),
      })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `Answer ${turn}.` } })
    }
    const usages = simulatePromptCache(requests, { provider: 'openai', model: 'gpt-5.6-terra' })
    // Each call reads everything the previous call sent and writes only its own new turn.
    for (let call = 1; call < usages.length; call++) expect(usages[call]?.readTokens).toBe(usages[call - 1]?.inputTokens)
    expect(usages.every((usage) => usage.uncachedTokens === 0)).toBe(true)
  })

  it('knows which models take explicit breakpoints', () => {
    for (const model of ['gpt-5.6', 'gpt-5.6-terra', 'GPT-5.6-luna', 'openai/gpt-5.6-sol', 'gpt-5.10-mini', 'gpt-6', 'gpt-6.1-terra'])
      expect(openAITakesCacheBreakpoints(model), model).toBe(true)
    for (const model of ['gpt-5.5', 'gpt-5', 'gpt-5.1-codex', 'gpt-4o-mini', 'o3', 'llama3.2', 'gpt-oss-20b', 'my-gpt-6'])
      expect(openAITakesCacheBreakpoints(model), model).toBe(false)
  })
})
