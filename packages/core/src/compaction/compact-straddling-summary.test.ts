import { describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { planCompaction } from './compact'

/**
 * Regression: a summary that ends inside a tool unit (written by hand, imported, made by older code).
 * The projector keeps such a unit raw and whole, but the planner used to start its new range right
 * after the summary, skip the unit's unresolved call as "already summarized" and summarize the rest of
 * the unit — an unresolved call inside the summarized range and a unit split in two. The compaction
 * property found it (seed 20261122) once `policyOptionsArbitrary` gained the `cache` options; this is
 * the smallest shape of its counterexample.
 */
const policy = definePolicy({ maxInputTokens: 2000, reserveOutputTokens: 200, keepLastTurns: 1 })

/** 0 user, 1 assistant text + 2 call a (unresolved or late) + 3 call b + 4 result b, 5 summary of 0..2, then turns. */
function straddled(lateResult: boolean): Thread {
  const thread = createThread({ id: 'straddle' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather in Oslo and Bergen?' } })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Checking both.' }, refs: { callId: 'c' } })
  thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c', toolCallId: 'a' } })
  thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Bergen' } }, refs: { callId: 'c', toolCallId: 'b' } })
  thread.append({ kind: 'tool_result', payload: { name: 'weather', result: 'Bergen: rain' }, refs: { callId: 'c', toolCallId: 'b' } })
  thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 2, content: 'The user asked for the weather.' } })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'And tomorrow?' } })
  if (lateResult) thread.append({ kind: 'tool_result', payload: { name: 'weather', result: 'Oslo: sun' }, refs: { callId: 'c', toolCallId: 'a' } })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Sun in Oslo.' } })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Thanks.' } })
  thread.append({ kind: 'message', payload: { role: 'assistant', content: 'You are welcome.' } })
  return thread
}

describe('planCompaction: a previous summary that ends inside a tool unit', () => {
  it('never takes in the unit while one of its calls is unresolved', () => {
    const thread = straddled(false)
    expect(thread.index.unresolvedToolCallIds.has('a')).toBe(true)
    // Everything after the unit waits behind it: nothing can be summarized yet.
    expect(planCompaction(thread, policy)).toBeUndefined()
  })

  it('takes the unit in whole once it is answered, and gives the summarizer every member the summary did not hold', () => {
    const thread = straddled(true)
    const plan = planCompaction(thread, policy)
    expect(plan).toBeDefined()
    if (plan === undefined) return
    expect(plan.fromSeq).toBe(0)
    // The last turn (from seq 9) is protected; the late result (seq 7) is inside the range with its call.
    expect(plan.toSeq).toBe(8)
    expect(plan.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 6, 7, 8])
  })

  it('continues a summary that already holds an unresolved call whole, without giving that call to the summarizer', () => {
    // The smallest shape fast-check found for the other side of the rule: the call is hidden by the
    // existing summary (the projector shows none of it), so continuing that summary hides nothing new.
    const thread = createThread({ id: 'covered' })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Checking.' }, refs: { callId: 'c' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c', toolCallId: 'a' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Oslo' } })
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 1, content: 'Asked for the weather.' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Sunny.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Thanks.' } })
    const plan = planCompaction(thread, policy)
    expect(plan).toMatchObject({ fromSeq: 0, toSeq: 4 })
    expect(plan?.entries.map((entry) => entry.seq)).toEqual([2, 4])
  })
})
