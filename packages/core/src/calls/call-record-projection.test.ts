import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createRecallIndex } from '../recall/recall-index'
import { createTokenCounter } from '../tokens/token-counter'
import { testCallOptions } from '../testing/calls'
import { readCallRecords } from './read-call-records'
import { callRecord } from './write-call-record'

describe('callRecord: what the projection did, for the devtools to mark', () => {
  it('records how many older entries recall brought back and which summary stood in, and reads them back', async () => {
    const counter = await createTokenCounter('heuristic')
    const thread = createThread({ id: 'recalling' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'My passport number ends in 4471 and I fly to Lisbon.' } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Noted: passport 4471, Lisbon.' } })
    for (let turn = 0; turn < 30; turn++) {
      thread.append({ kind: 'message', payload: { role: 'user', content: `Tell me about museum ${turn} and its opening hours in the afternoon.` } })
      thread.append({ kind: 'message', payload: { role: 'assistant', content: `Museum ${turn} opens at ${9 + (turn % 3)} and closes at 18.` } })
    }
    thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 41, content: 'The user planned museum visits; passport and flight were noted.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Which passport number did I give you?' } })
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 900, reserveOutputTokens: 100, recall: {} })
    const projection = project({ thread, policy, counter, recall: createRecallIndex() })
    expect(projection.meta.recall?.seqs.length).toBeGreaterThan(0)
    expect(projection.meta.summaryUsed).toBe(true)
    const record = callRecord(testCallOptions({ counter, policy, projection, basisSeq: thread.nextSeq }))
    expect(record.recalledEntries).toBe(projection.meta.recall?.seqs.length)
    expect(record.summarySeq).toBe(projection.meta.summary?.seq)
    thread.append({ kind: 'message', payload: { role: 'assistant', content: '4471.' }, refs: { callId: 'c1' }, meta: { call: record } })
    expect(readCallRecords(thread.entries)[0]?.record).toMatchObject({ recalledEntries: record.recalledEntries, summarySeq: record.summarySeq })
  })

  it('leaves both out when recall brought nothing and no summary was sent', async () => {
    const counter = await createTokenCounter('heuristic')
    const thread = createThread({ id: 'plain' })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'hello' } })
    const policy = definePolicy({ tokenizer: 'heuristic' })
    const projection = project({ thread, policy, counter })
    const record = callRecord(testCallOptions({ counter, policy, projection, basisSeq: 1 }))
    expect(record).not.toHaveProperty('recalledEntries')
    expect(record).not.toHaveProperty('summarySeq')
  })
})
