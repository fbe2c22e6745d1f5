import { createTokenCounter, project, type EntryInput } from '@threadlens/core'
import { callRecord, completeCallRecord } from '@threadlens/core/calls'
import { createSessionSource } from '@threadlens/client'
import { serverCallOptions } from '@threadlens/testing'
import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Calls tab', () => {
  it('lists past calls, replays each from the thread before it, and diffs consecutive calls', async () => {
    const recorded = testPolicy({ name: 'recorded' })
    const oneTurn = testPolicy({ name: 'one-turn', maxTurns: 1 })
    const session = createSessionSource({
      status: 'idle',
      threadId: 'unused',
      calls: [
        {
          callId: 'c1',
          policy: recorded,
          model: 'gpt-4o-mini',
          usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64 },
          stopReason: 'stop',
        },
        { callId: 'c2', policy: oneTurn },
      ],
    })
    const panel = await renderPanel({ entries: conversation(3), tab: 'calls', session })
    // conversation(3): calls c0a (tool call), c0, c1, c2.
    expect((await panel.find('calls-count')).textContent).toBe('4 calls')
    const detail = await panel.find('call-detail')
    expect(detail.dataset['callId']).toBe('c2')
    expect(detail.textContent).toContain('exact replay (recorded policy)')
    // c2 was sent with one turn only: the window moved, the cached prefix broke.
    expect((await panel.find('prefix-stable')).dataset['stable']).toBe('false')
    const changes = (change: string) =>
      panel.queryAll(`[data-testid="call-diff"] [data-change="${change}"]`).map((item) => Number(item.dataset['seq']))
    expect(changes('leaving')).toEqual([0, 1, 2, 3, 4])
    expect(changes('entering')).toContain(6)
    // Each change says why, in words, and shows the entry's text.
    const left = panel.query('[data-testid="call-diff"] [data-change="leaving"]') as HTMLElement
    expect(left.textContent).toContain('they are older than the turns the policy keeps')
    expect(left.querySelector('[title]')?.getAttribute('title')).toBe('window: outside maxTurns / maxMessages')
    expect(left.textContent).toContain('user: question 0')
    const broke = await panel.find('prefix-break')
    expect(Number(broke.dataset['byte'])).toBeGreaterThan(0)
    expect(broke.textContent).toMatch(
      /the request changed in message 1 \(.*\): only the 0 messages before it \(0 tokens\) can be read from the provider's cache/,
    )
    // The byte offset is expert detail: in the tooltip.
    expect(broke.querySelector('p')?.title).toMatch(/^the two requests differ from byte [\d,]+ of the later one on$/)

    ;(panel.query('[data-call-id="c1"][data-testid="call-row"]') as HTMLElement).click()
    await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('c1'))
    const c1 = panel.query('[data-testid="call-detail"]') as HTMLElement
    expect(c1.textContent).toContain('exact replay (recorded policy)')
    expect(c1.textContent).toContain('usage: 120 in, 30 out, 64 cached')
    expect(c1.textContent).toContain('stop: stop')
    // c1 only added to what c0 sent: the whole earlier request is a cacheable prefix.
    expect(c1.querySelector('[data-testid="prefix-stable"]')?.getAttribute('data-stable')).toBe('true')
    expect([...c1.querySelectorAll('[data-change="entering"]')].map((item) => (item as HTMLElement).dataset['seq'])).toEqual(['3', '4'])
    expect(c1.querySelector('[data-testid="breakpoint-reuse"]')?.textContent).toContain('read back')
    // c0 has no model recorded: the simulator (whose caches are per model) says why it predicts nothing.
    expect(c1.querySelector('[data-testid="cache-figures"]')?.textContent).toContain(
      'no prediction: the model of the answered call before is not recorded · provider reported 64',
    )
    panel.unmount()
  })

  it('shows a tool loop run on a server as one call: its usage, cache figures, stop reason, timings and each step', async () => {
    const policy = testPolicy()
    const panel = await renderPanel({ tab: 'calls', policy, entries: [] })
    await panel.stores.threads.appendMany(panel.threadId, [{ kind: 'message', payload: { role: 'user', content: 'Where are my orders?' } }])
    const thread = await panel.stores.threads.load(panel.threadId)
    const counter = await createTokenCounter('heuristic')
    const projection = project({ thread, policy, counter, tools: [] })
    // Written by the browser when it sent the request, completed from the route's report when the reply was saved.
    const sent = callRecord(
      serverCallOptions({ counter, policy, projection, basisSeq: thread.nextSeq, timing: { startedAt: Date.UTC(2026, 10, 28, 9) } }),
    )
    const steps = [
      {
        stopReason: 'tool-calls',
        inputTokens: 100,
        outputTokens: 12,
        cachedInputTokens: 50,
        cacheWriteInputTokens: 10,
        firstTokenMs: 210,
        durationMs: 400,
      },
      { stopReason: 'stop', inputTokens: 140, outputTokens: 8, cachedInputTokens: 50, cacheWriteInputTokens: 10, firstTokenMs: 190, durationMs: 300 },
    ]
    const record = completeCallRecord(sent, {
      stopReason: 'stop',
      usage: { inputTokens: 240, outputTokens: 20, cachedInputTokens: 100, cacheWriteInputTokens: 20 },
      firstTokenMs: 210,
      durationMs: 760,
      steps,
      model: 'shop-model',
    })
    const refs = (iteration: number, toolCallId?: string) => ({ callId: 'reply:0', iteration, ...(toolCallId === undefined ? {} : { toolCallId }) })
    const reply: EntryInput[] = [
      { kind: 'tool_call', payload: { name: 'orderStatus', arguments: { orderId: '40' } }, refs: refs(0, 'c0'), meta: { call: record } },
      { kind: 'tool_result', payload: { name: 'orderStatus', result: 'shipped' }, refs: refs(0, 'c0') },
      { kind: 'message', payload: { role: 'assistant', content: 'It has shipped.' }, refs: refs(1) },
    ]
    await panel.stores.threads.appendMany(panel.threadId, reply)
    await eventually(() => expect(panel.query('[data-testid="calls-count"]')?.textContent).toBe('1 calls'))
    const detail = await panel.find('call-detail')
    expect(detail.textContent).toContain('usage: 240 in, 20 out, 100 cached')
    expect(detail.textContent).toContain('stop: stop')
    expect(detail.textContent).toContain('model shop-model')
    expect((await panel.find('call-timing')).textContent).toContain('first token 210 ms · took 760 ms')
    const items = [...(await panel.find('call-steps')).querySelectorAll('li')].map((item) => item.textContent)
    expect(items).toEqual([
      'tool-calls · 100 in, 12 out, 50 cached, 10 written to cache · first token 210 ms · took 400 ms',
      'stop · 140 in, 8 out, 50 cached, 10 written to cache · first token 190 ms · took 300 ms',
    ])
    expect((panel.query('[data-testid="trace-tokens"]') as HTMLElement).textContent).not.toContain('— → —')
    panel.unmount()
  })

  it('says so when a thread has no calls', async () => {
    const panel = await renderPanel({ entries: [{ kind: 'message', payload: { role: 'user', content: 'hi' } }], tab: 'calls' })
    expect((await panel.find('calls-empty')).textContent).toContain('refs.callId')
    panel.unmount()
  })
})
