import { describe, expect, it } from 'vitest'
import { sendPush } from './send-push'
import type { AppendOutcome, ProducerPosition, StreamHttp } from './stream-http'
import type { InflightPush } from './sync-state'

/** A server that answers appends from a script and records what it was sent. */
function scripted(answers: AppendOutcome[]): { http: StreamHttp; appends: { body: string; producer: ProducerPosition }[]; created: string[] } {
  const appends: { body: string; producer: ProducerPosition }[] = []
  const created: string[] = []
  const http: StreamHttp = {
    async create(url) {
      created.push(url)
    },
    async append(_url, body, producer) {
      appends.push({ body, producer })
      const answer = answers.shift()
      if (answer === undefined) throw new Error('no more answers')
      return answer
    },
    read: async () => ({ kind: 'missing' }),
    close: async () => {},
  }
  return { http, appends, created }
}

const written: InflightPush = { epoch: 2, seq: 7, body: '[{"v":1}]', ids: ['e1'] }

describe('sendPush', () => {
  it('creates a missing stream, then sends the same body with the same producer place', async () => {
    const { http, appends, created } = scripted([{ kind: 'missing' }, { kind: 'stored' }])
    const renewed: InflightPush[] = []
    const sent = await sendPush(http, 'u', 'device', written, async (push) => void renewed.push(push))
    expect(sent).toEqual({ outcome: { kind: 'stored' }, push: written })
    expect(created).toEqual(['u'])
    expect(appends).toEqual([
      { body: written.body, producer: { id: 'device', epoch: 2, seq: 7 } },
      { body: written.body, producer: { id: 'device', epoch: 2, seq: 7 } },
    ])
    expect(renewed).toEqual([])
  })

  it('after a sequence gap, writes down a new epoch at seq 0 before sending the same body again', async () => {
    const { http, appends } = scripted([{ kind: 'sequence-gap', expectedSeq: 0 }, { kind: 'stored' }])
    const renewed: InflightPush[] = []
    const sent = await sendPush(http, 'u', 'device', written, async (push) => {
      expect(appends).toHaveLength(1)
      renewed.push(push)
    })
    expect(renewed).toEqual([{ ...written, epoch: 3, seq: 0 }])
    expect(sent.push).toEqual({ ...written, epoch: 3, seq: 0 })
    expect(appends[1]).toEqual({ body: written.body, producer: { id: 'device', epoch: 3, seq: 0 } })
  })

  it('after a stale epoch, goes past the epoch the server holds, and tries once', async () => {
    const { http, appends } = scripted([
      { kind: 'stale-epoch', currentEpoch: 9 },
      { kind: 'stale-epoch', currentEpoch: 11 },
    ])
    const sent = await sendPush(http, 'u', 'device', written, async () => {})
    expect(appends.map((append) => append.producer.epoch)).toEqual([2, 10])
    expect(sent.outcome).toEqual({ kind: 'stale-epoch', currentEpoch: 11 })
  })
})
