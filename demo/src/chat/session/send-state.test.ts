import type { SessionEvent } from '@threadlens/agent'
import { describe, expect, it } from 'vitest'
import { idle, sendEventChange, type SendState } from './send-state'

const running: SendState = { ...idle, phase: 'running', pending: { text: 'hi', requestId: undefined } }
const context = { text: 'hi', stopped: false, isBusy: (error: unknown) => error === 'busy' }
const after = (event: SessionEvent, over: Partial<typeof context> = {}) => {
  const change = sendEventChange(event, { ...context, ...over })
  return change === undefined ? undefined : { ...running, ...change }
}

describe('sendEventChange', () => {
  it('waits for another tab, then runs with the request id once the request starts', () => {
    expect(after({ type: 'lock-wait', requestId: 'r1', threadId: 't' })?.phase).toBe('waiting')
    expect(after({ type: 'request-start', requestId: 'r1' })).toEqual({ ...running, pending: { text: 'hi', requestId: 'r1' } })
  })

  it('says what happened besides the reply: a summary written, a request cut at its model calls', () => {
    const compaction = {
      type: 'compaction-end',
      threadId: 't',
      fromSeq: 2,
      toSeq: 9,
      tokensBefore: 900,
      tokensAfter: 300,
      summaryTokens: 80,
    } as const
    expect(after(compaction)?.notice).toBe('Summarized entries #2–#9 to fit the budget.')
    expect(after({ type: 'max-iterations', requestId: 'r1', iterations: 8 })?.notice).toBe('Stopped after 8 model calls in one request.')
  })

  it('tells a stop and a busy tab from a failure, which it keeps as the error', () => {
    const error = { type: 'error', requestId: 'r1', error: new TypeError('boom') } as const
    expect(after(error, { stopped: true })).toEqual({ ...running, notice: 'Stopped. What was streamed so far is kept in the thread.' })
    expect(after({ ...error, error: 'busy' })).toEqual({ ...running, notice: 'A request is already running in this tab.' })
    expect(after(error)).toEqual({ ...running, error: { name: 'TypeError', message: 'boom' } })
  })

  it('leaves the chat as it is for the events it does not show', () => {
    expect(sendEventChange({ type: 'text-delta', callId: 'c1', text: 'x' }, context)).toBeUndefined()
    expect(sendEventChange({ type: 'done', requestId: 'r1', text: 'x', stopReason: 'stop' }, context)).toBeUndefined()
  })
})
