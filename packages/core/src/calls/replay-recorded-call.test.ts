import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { hashJson } from '../utils/hash'
import { replayCall, replayRecordedCall } from './replay-call'
import { callRecord, StoredHashes } from './write-call-record'

// A thread with one recorded call (c1, sent after four entries) and a later unrecorded one.
async function recordedThread() {
  const counter = await createTokenCounter('heuristic')
  const wide = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 4000, reserveOutputTokens: 100 })
  const narrow = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 160, reserveOutputTokens: 40 })
  const thread = createThread({ id: 'replays' })
  for (let turn = 0; turn < 2; turn++) {
    thread.append({
      kind: 'message',
      payload: { role: 'user', content: `Question ${turn}: what did the museum ${turn} show in its spring exhibition this year?` },
    })
    thread.append({
      kind: 'message',
      payload: { role: 'assistant', content: `Answer ${turn}: paintings from the early twentieth century, mostly landscapes.` },
    })
  }
  const sent = project({ thread, policy: wide, counter })
  const record = callRecord({
    model: 'm',
    provider: 'p',
    counter,
    policy: wide,
    tools: [],
    memory: undefined,
    projection: sent,
    basisSeq: thread.nextSeq,
    stored: new StoredHashes(),
    stopReason: 'stop',
    usage: undefined,
  })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Stored reply.' }, refs: { callId: 'c1' }, meta: { call: record } })
  return { counter, wide, narrow, thread, record, sent }
}

describe('replayRecordedCall: the one rule for which record a replay uses', () => {
  it('replays a stored record as core stored it, when the application adds nothing that disagrees', async () => {
    const { counter, narrow, thread, record, sent } = await recordedThread()
    const replay = replayRecordedCall(thread.entries, { callId: 'c1', stored: record, model: 'm' }, { counter, fallbackPolicy: narrow, firstSeq: 4 })
    expect(replay.policySource).toBe('recorded')
    expect(replay.verified).toBe(true)
    expect(replay.projection.messages).toEqual(sent.messages)
    expect(replay.projection).toEqual(replayCall(thread.entries, record, { counter, fallbackPolicy: narrow }).projection)
  })

  it("replays from the application's details when they point elsewhere (another basis), and checks them against the application's hash", async () => {
    const { counter, wide, narrow, thread, record } = await recordedThread()
    const basisSeq = 2
    const expected = project({ thread: thread.entries.slice(0, basisSeq), policy: narrow, counter })
    const replay = replayRecordedCall(
      thread.entries,
      { callId: 'c1', stored: record, basisSeq, policy: narrow, messagesHash: hashJson(expected.messages) },
      { counter, fallbackPolicy: wide, firstSeq: 4 },
    )
    expect(replay.policySource).toBe('recorded')
    expect(replay.policy).toBe(narrow)
    expect(replay.projection.messages).toEqual(expected.messages)
    expect(replay.verified).toBe(true)
    const wrongHash = replayRecordedCall(
      thread.entries,
      { callId: 'c1', stored: record, basisSeq, policy: narrow, messagesHash: 'not-it' },
      { counter, fallbackPolicy: wide, firstSeq: 4 },
    )
    expect(wrongHash.verified).toBe(false)
  })

  it('replays a call with no record from the thread before its first entry, with the fallback policy, unverified', async () => {
    const { counter, narrow, thread } = await recordedThread()
    const replay = replayRecordedCall(thread.entries, { callId: 'c2' }, { counter, fallbackPolicy: narrow, firstSeq: 3 })
    expect(replay.policySource).toBe('fallback')
    expect(replay.verified).toBeUndefined()
    expect(replay.projection.messages).toEqual(project({ thread: thread.entries.slice(0, 3), policy: narrow, counter }).messages)
  })
})
