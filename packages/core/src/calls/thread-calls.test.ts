import { describe, expect, it } from 'vitest'
import type { Entry } from '../entries/entry'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import type { ProjectionResult } from '../project/types'
import { createTokenCounter } from '../tokens/token-counter'
import { hashJson } from '../utils/hash'
import { compareProjections } from './compare-projections'
import { replayThreadCall } from './replay-thread-call'
import { deriveCalls, threadCalls } from './thread-calls'

function agentThread() {
  const thread = createThread({ id: 'calls', now: () => 1 })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather in Oslo?' }, refs: { requestId: 'r1' } }) // 0
  thread.append({
    kind: 'tool_call',
    payload: { name: 'weather', arguments: { city: 'Oslo' } },
    refs: { requestId: 'r1', callId: 'c1', toolCallId: 't1' },
  }) // 1
  thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 4 } }, refs: { requestId: 'r1', toolCallId: 't1' } }) // 2
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Cold: 4 °C.' }, refs: { requestId: 'r1', callId: 'c2' } }) // 3
  thread.append({ kind: 'message', payload: { role: 'user', content: 'And tomorrow?' }, refs: { requestId: 'r2' } }) // 4
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Rain.' }, refs: { requestId: 'r2', callId: 'c3' } }) // 5
  return thread
}

describe('threadCalls and replayThreadCall', () => {
  it('groups entries by callId, in order, merging recorded details', () => {
    const thread = agentThread()
    const policy = definePolicy({ name: 'recorded', tokenizer: 'heuristic' })
    const calls = threadCalls(thread, [{ callId: 'c2', policy, usage: { inputTokens: 40, outputTokens: 6 }, stopReason: 'stop' }])
    expect(calls.map((call) => [call.callId, call.firstSeq, call.seqs, call.requestId, call.toolCallCount])).toEqual([
      ['c1', 1, [1], 'r1', 1],
      ['c2', 3, [3], 'r1', 0],
      ['c3', 5, [5], 'r2', 0],
    ])
    expect(calls[1]?.record?.stopReason).toBe('stop')
    // Memoised per thread version and records array.
    expect(threadCalls(thread)).toBe(threadCalls(thread))
  })

  it('replays each call as the projection of the thread before it, and diffs consecutive calls', async () => {
    const thread = agentThread()
    const counter = await createTokenCounter('heuristic')
    const fallbackPolicy = definePolicy({ tokenizer: 'heuristic', systemPrompt: 'Be brief.' })
    const calls = threadCalls(thread)
    const replays = calls.map((call) => replayThreadCall(thread, call, { fallbackPolicy, counter }))
    expect(replays.map((replay) => replay.projection.meta.includedSeqs)).toEqual([[0], [0, 1, 2], [0, 1, 2, 3, 4]])
    // Byte-identical to projecting the prefix directly: the replay is exact.
    expect(JSON.stringify(replays[1]?.projection)).toBe(JSON.stringify(project({ thread: thread.slice(0, 2), policy: fallbackPolicy, counter })))
    const diff = compareProjections(replays[0]?.projection as ProjectionResult, replays[1]?.projection as ProjectionResult)
    expect(diff.entered).toEqual([1, 2])
    expect(diff.left).toEqual([])
    expect(diff.prefixStable).toBe(true)
    expect(diff.sharedPrefixMessages).toBe(2)
    expect(diff.tokenDelta).toBeGreaterThan(0)
  })

  it('a moving window breaks the prefix, and the diff says so', async () => {
    const thread = agentThread()
    const counter = await createTokenCounter('heuristic')
    const narrow = definePolicy({ tokenizer: 'heuristic', maxTurns: 1 })
    const wide = definePolicy({ tokenizer: 'heuristic' })
    const diff = compareProjections(project({ thread, policy: wide, counter }), project({ thread, policy: narrow, counter }))
    expect(diff.left).toEqual([0, 1, 2, 3])
    expect(diff.entered).toEqual([])
    expect(diff.prefixStable).toBe(false)
    expect(diff.tokenDelta).toBeLessThan(0)
  })
})

describe('records stored on the thread (entry.meta.call)', () => {
  it('resolves policies, tools and memory referenced by hash, and merges session records over them', () => {
    const policy = definePolicy({ name: 'stored', tokenizer: 'heuristic', maxTurns: 3 })
    const entry = (seq: number, callId: string, call?: object): Entry =>
      ({
        id: `e${seq}`,
        threadId: 't',
        seq,
        kind: 'message',
        payload: { role: 'assistant', content: `reply ${seq}` },
        refs: { callId },
        createdAt: 0,
        ...(call === undefined ? {} : { meta: { call } }),
      }) as unknown as Entry
    const entries = [
      entry(0, 'c1', {
        model: 'gpt-4o-mini',
        provider: 'openai',
        counter: 'heuristic',
        policyHash: 'p1',
        policy: { ...policy },
        toolsHash: 'x',
        tools: [{ name: 'lookup', parameters: {} }],
        messagesHash: 'm',
        inputTokens: 10,
        outputTokens: 2,
        stopReason: 'stop',
      }),
      entry(1, 'c2', {
        model: 'gpt-4o-mini',
        provider: 'openai',
        counter: 'heuristic',
        policyHash: 'p1',
        toolsHash: 'x',
        messagesHash: 'm',
        stopReason: 'tool_calls',
      }),
      entry(2, 'c3'),
    ]
    const calls = deriveCalls(entries, [{ callId: 'c2', usage: { inputTokens: 7, outputTokens: 1 } }])
    expect(calls[0]?.record).toMatchObject({
      model: 'gpt-4o-mini',
      counter: 'heuristic',
      stopReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 2 },
    })
    expect(calls[0]?.record?.policy?.maxTurns).toBe(3)
    // c2 names the policy and tools by hash only.
    expect(calls[1]?.record?.policy).toEqual(calls[0]?.record?.policy)
    expect(calls[1]?.record?.tools?.[0]?.name).toBe('lookup')
    expect(calls[1]?.record?.usage).toEqual({ inputTokens: 7, outputTokens: 1 })
    expect(calls[1]?.record?.stopReason).toBe('tool_calls')
    expect(calls[2]?.record).toBeUndefined()
  })
})

describe('replay verification', () => {
  it('replays from the recorded basisSeq and checks the recorded messages hash', async () => {
    const thread = agentThread()
    const counter = await createTokenCounter('heuristic')
    const policy = definePolicy({ tokenizer: 'heuristic' })
    const sent = project({ thread: thread.slice(0, 4), policy, counter }) // c3's input: entries 0..4
    const messagesHash = hashJson(sent.messages)
    const [, , c3] = threadCalls(thread, [{ callId: 'c3', policy, basisSeq: 5, messagesHash }])
    const replay = replayThreadCall(thread, c3 as NonNullable<typeof c3>, { fallbackPolicy: policy, counter })
    expect(replay.verified).toBe(true)
    expect(replay.projection.meta.includedSeqs).toEqual([0, 1, 2, 3, 4])
    const [, , tampered] = threadCalls(thread, [{ callId: 'c3', policy, basisSeq: 4, messagesHash }])
    expect(replayThreadCall(thread, tampered as NonNullable<typeof tampered>, { fallbackPolicy: policy, counter }).verified).toBe(false)
  })
})
