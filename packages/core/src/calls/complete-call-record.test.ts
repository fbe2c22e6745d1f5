import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { parseEntryInput } from '../entries/entry-schema'
import { InvalidEntryError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { serverCallOptions } from '../testing/calls'
import { readCallRecords } from './read-call-records'
import { callRecord, completeCallRecord } from './write-call-record'

describe('completeCallRecord: a record written when the request was sent, completed by how the call ended', async () => {
  const counter = await createTokenCounter('heuristic')
  const policy = definePolicy({ tokenizer: 'heuristic', systemPrompt: 'Be brief.' })
  const thread = createThread({ id: 't1' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'hello' } })
  const projection = project({ thread, policy, counter, tools: [] })
  const sent = callRecord(serverCallOptions({ counter, policy, projection, basisSeq: 1, timing: { startedAt: 1_000 } }))
  const steps = [
    { stopReason: 'tool-calls', inputTokens: 10, outputTokens: 4, cachedInputTokens: 8, firstTokenMs: 30, durationMs: 50 },
    { stopReason: 'stop', inputTokens: 20, outputTokens: 6, durationMs: 40 },
  ]
  const done = completeCallRecord(sent, {
    stopReason: 'stop',
    usage: { inputTokens: 30, outputTokens: 10, cachedInputTokens: 8 },
    firstTokenMs: 30,
    durationMs: 95,
    steps,
    model: 'gpt-test',
  })

  it('keeps what was sent and its clock, and takes the usage, stop reason, timings, steps and model reported', () => {
    expect(sent).not.toHaveProperty('durationMs')
    expect(done).toEqual({
      ...sent,
      model: 'gpt-test',
      inputTokens: 30,
      outputTokens: 10,
      cachedInputTokens: 8,
      stopReason: 'stop',
      firstTokenMs: 30,
      durationMs: 95,
      steps,
    })
    expect(done.startedAt).toBe(1_000)
  })

  it('is stored and read back like any record, its steps included', () => {
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'hi' }, refs: { callId: 'c1' }, meta: { call: done } })
    expect(readCallRecords(thread.entries)[0]?.record.steps).toEqual(steps)
  })

  it('keeps no steps for a call of one step, and replaces the figures of an earlier report', () => {
    const again = completeCallRecord(done, { stopReason: 'length', steps: [{ stopReason: 'length' }] })
    expect(again).not.toHaveProperty('steps')
    expect(again).not.toHaveProperty('inputTokens')
    expect(again).not.toHaveProperty('durationMs')
    expect(again.stopReason).toBe('length')
  })

  it('refuses a stored step that is not a step', () => {
    const bad = {
      kind: 'message',
      payload: { role: 'assistant', content: 'x' },
      meta: { call: { ...done, steps: [{ stopReason: 'stop', inputTokens: -1 }] } },
    }
    expect(() => parseEntryInput(bad)).toThrow(InvalidEntryError)
  })
})
