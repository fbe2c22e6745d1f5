import { createTokenCounter, project } from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'
import { describe, expect, it } from 'vitest'
import { policyById, policyChoices } from './policies'
import { createSampleThread, hostileLinkText, hostileMessageText, sampleSeqs } from './sample-thread'
import { timelineRows } from './timeline-state'

describe('sample thread', () => {
  const thread = createSampleThread()
  const at = (seq: number) => {
    const entry = thread.bySeq(seq)
    if (entry === undefined) throw new Error(`no entry #${seq}`)
    return entry
  }

  it('is deterministic', () => {
    expect(JSON.stringify(createSampleThread().entries)).toBe(JSON.stringify(thread.entries))
  })

  it('has the entries the page and the e2e test rely on', () => {
    expect(thread.entries.length).toBeGreaterThanOrEqual(40)
    const [firstCall, secondCall] = sampleSeqs.parallelCalls.map(at)
    expect(firstCall?.kind).toBe('tool_call')
    expect(secondCall?.kind).toBe('tool_call')
    expect(firstCall?.refs.callId).toBe(secondCall?.refs.callId)
    expect(sampleSeqs.parallelResults.map((seq) => at(seq).kind)).toEqual(['tool_result', 'tool_result'])
    const failed = at(sampleSeqs.failedResult)
    expect(failed.kind === 'tool_result' && failed.payload.error !== undefined).toBe(true)
    const summary = at(sampleSeqs.summary)
    expect(summary.kind === 'summary' && summary.payload.toSeq < sampleSeqs.pinnedConstraints).toBe(true)
    const pin = at(sampleSeqs.pinOp)
    expect(pin.kind === 'context_op' && pin.payload.op === 'pin' && pin.payload.target === sampleSeqs.pinnedConstraints).toBe(true)
    const hostile = at(sampleSeqs.hostileMessage)
    expect(hostile.kind === 'message' && hostile.payload.content.includes(hostileMessageText)).toBe(true)
    const hostileResult = at(sampleSeqs.hostileToolResult)
    expect(hostileResult.kind === 'tool_result' && JSON.stringify(hostileResult.payload.result).includes('javascript:window.__xss=3')).toBe(true)
    expect(hostileLinkText).toContain('javascript:')
    const latest = at(sampleSeqs.latestUser)
    expect(latest.kind === 'message' && latest.payload.role === 'user' && latest.seq === thread.nextSeq - 1).toBe(true)
  })

  it('projects within budget under every policy, and the tiny one drops history', async () => {
    const counter = await createTokenCounter('o200k_base')
    for (const choice of policyChoices) {
      const { meta } = project({ thread, policy: choice.policy, counter })
      expect(meta.overflow, choice.id).toBe(false)
      expect(meta.tokens.total, choice.id).toBeLessThanOrEqual(meta.budget.input)
      expect(meta.pinnedSeqs, choice.id).toContain(sampleSeqs.pinnedConstraints)
      expect(meta.includedSeqs, choice.id).toContain(sampleSeqs.latestUser)
    }
    const tiny = project({ thread, policy: policyById('tiny').policy, counter })
    const rows = timelineRows(thread.entries, tiny.meta)
    expect(rows.some((row) => row.state === 'dropped' && row.detail === 'not sent: over the token budget')).toBe(true)
    expect(rows.find((row) => row.entry.seq === sampleSeqs.pinnedConstraints)?.state).toBe('included')
    // The long window holds everything the summary covers: those entries are sent as written, the summary is not needed.
    const long = project({ thread, policy: policyById('long').policy, counter })
    const longRows = timelineRows(thread.entries, long.meta)
    expect(longRows.filter((row) => row.state === 'summarized')).toEqual([])
    expect(longRows.find((row) => row.entry.seq === sampleSeqs.summary)).toMatchObject({ state: 'dropped', detail: 'not sent: summary not needed' })
    expect(longRows.find((row) => row.entry.seq === 0)?.state).toBe('included')
    expect(longRows.find((row) => row.entry.seq === sampleSeqs.hostileMessage)?.state).toBe('included')
  })

  it('with recall, the tiny window brings back the older entries that match the last question', async () => {
    const counter = await createTokenCounter('o200k_base')
    const { meta } = project({ thread, policy: policyById('tiny-recall').policy, counter, recall: createRecallIndex() })
    expect(meta.recall?.skipped).toBeUndefined()
    expect(meta.recall?.seqs.length).toBeGreaterThan(0)
    const rows = timelineRows(thread.entries, meta)
    const hit = meta.recall?.hits[0]
    expect(rows.find((row) => row.entry.seq === hit?.seq)?.detail).toMatch(/^recalled: matched /)
    // Without an index, recall says why it sent nothing and the window gets the room.
    expect(project({ thread, policy: policyById('tiny-recall').policy, counter }).meta.recall?.skipped).toBe('no-index')
  })
})
