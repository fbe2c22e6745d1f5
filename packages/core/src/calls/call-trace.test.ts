import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { ReplayError } from '../errors/threadlens-error'
import type { CallAttempt } from './call-record'
import { callTrace, readCallRecords } from './read-call-records'
import { replayCall } from './replay-call'
import { callRecord, StoredHashes } from './write-call-record'

describe('call records: one writer, one reader, one replay', async () => {
  const counter = await createTokenCounter('heuristic')
  const policy = definePolicy({ tokenizer: 'heuristic', systemPrompt: 'Be brief.' })
  const thread = createThread({ id: 't1' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'hello' } })
  const stored = new StoredHashes()
  const projection = project({ thread, policy, counter, tools: [], memory: 'remember this' })
  const base = { model: 'm', provider: 'openai', counter, policy, tools: [], memory: 'remember this', projection, basisSeq: thread.nextSeq, stored }
  // The first attempt failed: its record carries the policy, tools and memory the thread does not hold yet.
  const failed = callRecord({ ...base, stopReason: 'error', usage: undefined, timing: { startedAt: 100, durationMs: 5, attempts: 1 } })
  const answered = callRecord({
    ...base,
    stopReason: 'stop',
    usage: { inputTokens: 12, outputTokens: 2, cachedInputTokens: 4, cacheWriteInputTokens: 1 },
    timing: { startedAt: 100, firstTokenMs: 3, durationMs: 40, attempts: 2 },
  })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'hi' }, refs: { callId: 'c1' }, meta: { call: answered } })
  const attempts: CallAttempt[] = [
    {
      id: 'c1#1',
      threadId: 't1',
      callId: 'c1',
      attempt: 1,
      status: 'retried',
      record: failed,
      error: { name: 'RateLimitError', message: 'slow down', status: 429 },
    },
  ]

  it('writes the local count beside the provider’s, and cache reads and writes', () => {
    expect(answered).toMatchObject({
      localInputTokens: projection.meta.tokens.total,
      inputTokens: 12,
      cachedInputTokens: 4,
      cacheWriteInputTokens: 1,
      attempts: 2,
      firstTokenMs: 3,
    })
    expect(failed.policy).toBeDefined()
    expect(failed.memory).toBe('remember this')
  })

  it('reads the thread’s records with their references resolved', () => {
    const [read] = readCallRecords(thread.entries)
    expect(read).toMatchObject({ callId: 'c1', seq: 1, status: 'ok', memory: 'remember this', tools: [] })
    expect(read?.policy).toEqual(policy)
  })

  it('lists every attempt of a call together, in attempt order', () => {
    expect(callTrace(thread.entries, attempts).map((row) => [row.id, row.status, row.seq])).toEqual([
      ['c1#1', 'retried', undefined],
      ['c1#2', 'ok', 1],
    ])
  })

  it('replays the answer and the failed attempt to the same, verified messages', () => {
    const fromId = replayCall(thread, 'c1', { counter })
    const fromAttempt = replayCall(thread.entries, failed, { counter })
    expect(fromId.verified).toBe(true)
    expect(fromAttempt.verified).toBe(true)
    expect(fromAttempt.projection.messages).toEqual(fromId.projection.messages)
  })

  it('says what is missing with a ReplayError', async () => {
    expect(() => replayCall(thread, 'nope', { counter })).toThrow(ReplayError)
    const o200k = await createTokenCounter('o200k_base')
    expect(() => replayCall(thread, 'c1', { counter: o200k })).toThrow(/counted with "heuristic"/)
  })
})
