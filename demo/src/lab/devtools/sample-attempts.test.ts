import { createTokenCounter, replayCall } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { defaultPolicyId, policyById } from '../policies'
import { createSampleThread } from '../sample-thread'
import { ensureSampleAttempts } from './sample-attempts'

describe("the sample's call attempts", () => {
  it('are what an agent would log: valid, in order, each replaying exactly what it sent', async () => {
    const thread = createSampleThread()
    const policy = policyById(defaultPolicyId).policy
    // Through the store's call log, which refuses an attempt that does not match core's schema; logged once.
    const { calls } = createMemoryBackedStores()
    await ensureSampleAttempts(calls, 'sample', async () => thread.entries, policy)
    await ensureSampleAttempts(calls, 'sample', async () => thread.entries, policy)
    const attempts = await calls.attempts('sample')
    expect(attempts.map((attempt) => `${attempt.id}:${attempt.status}`)).toEqual(['c10#1:retried', 'c20#1:retried', 'c20#2:failed', 'c21#1:aborted'])
    const counter = await createTokenCounter(policy.tokenizer)
    let last = 0
    for (const attempt of attempts) {
      const startedAt = attempt.record.startedAt ?? 0
      expect(startedAt).toBeGreaterThan(last)
      // Sent after the entry before its basis, and before the entry at its basis (the reply it led to), if any.
      expect(startedAt).toBeGreaterThan(thread.bySeq(attempt.record.basisSeq - 1)?.createdAt ?? Number.POSITIVE_INFINITY)
      expect(startedAt).toBeLessThan(thread.bySeq(attempt.record.basisSeq)?.createdAt ?? Number.POSITIVE_INFINITY)
      last = startedAt
      const replay = replayCall(thread.entries, attempt.record, { counter })
      expect(replay.verified).toBe(true)
      expect(replay.policySource).toBe('recorded')
    }
    // The retried booking call is the one the thread answered at seq 23; the last question (seq 42) was never answered.
    expect(thread.bySeq(23)?.refs.callId).toBe('c10')
    expect(thread.entries.some((entry) => entry.refs.callId === 'c20' || entry.refs.callId === 'c21')).toBe(false)
    expect(thread.nextSeq).toBe(43)
  })
})
