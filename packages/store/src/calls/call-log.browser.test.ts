import type { CallRecord, EntryInput } from '@threadlens/core'
import type { CallAttempt } from '@threadlens/core/calls'
import { bareCallRecord } from '@threadlens/testing'
import { describe, expect, it } from 'vitest'
import { openTab } from '../testing/tab-protocol'
import { openTabs, threadInNewDatabase } from '../testing/browser-stores'
import type { CallLogEvent } from './call-log-store'
import { createCallLog } from '../backends/indexeddb/create-call-log'

// Real Chromium; the other "tabs" are Web Workers with their own IndexedDB connections.

const record = (reported: number): CallRecord =>
  bareCallRecord({
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    localInputTokens: 1_000,
    inputTokens: reported,
    outputTokens: 5,
    sentMessages: 4,
  })

const reply = (label: string, reported: number): EntryInput => ({
  kind: 'message',
  payload: { role: 'assistant', content: label },
  refs: { callId: label },
  meta: { call: record(reported) },
})

const until = async (check: () => boolean): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > 5_000) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('the call log across tabs (real Chromium)', () => {
  it('replies written by two tabs at once all calibrate the model, and this tab sees the result live', async () => {
    const { name, db, id } = await threadInNewDatabase('calibration')
    const log = createCallLog(db)
    const updates: CallLogEvent[] = []
    const stop = log.subscribeCalibrations((event) => updates.push(event))
    const tabs = await openTabs(name, 2)
    await Promise.all(
      tabs.map(async (tab, index) => {
        for (let call = 0; call < 20; call++)
          await tab.send({ type: 'append-many', threadId: id, inputs: [reply(`t${index}-c${call}`, 1_100 + index * 20)] })
      }),
    )
    const calibration = await log.calibration('claude-sonnet-4-5', 'heuristic')
    expect(calibration?.calls).toBe(40)
    expect(calibration?.ratio).toBeCloseTo(1.11, 6)
    await until(() => {
      const last = updates[updates.length - 1]
      return last?.type === 'calibrations-update' && last.calibrations[0]?.calls === 40
    })
    stop()
    for (const tab of tabs) tab.close()
    db.close()
  })

  it('an attempt another tab records shows here live, and goes when the thread is deleted', async () => {
    const { name, db, threads, id } = await threadInNewDatabase('attempts')
    const log = createCallLog(db)
    const seen: (readonly CallAttempt[])[] = []
    const stop = log.subscribeAttempts(id, (event) => {
      if (event.type === 'attempts-update') seen.push(event.attempts)
    })
    const tab = openTab()
    await tab.send({ type: 'open', name })
    const attempt: CallAttempt = {
      id: 'c1#1',
      threadId: id,
      callId: 'c1',
      attempt: 1,
      status: 'retried',
      record: { ...record(1), stopReason: 'error' },
      error: { name: 'RateLimitError', message: 'slow down', status: 429 },
    }
    await tab.send({ type: 'record-attempt', attempt })
    await until(() => seen[seen.length - 1]?.length === 1)
    expect(seen[seen.length - 1]?.[0]).toEqual(attempt)
    await threads.delete(id)
    await until(() => seen[seen.length - 1]?.length === 0)
    stop()
    tab.close()
    db.close()
  })
})
