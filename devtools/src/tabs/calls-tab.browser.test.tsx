import { createSessionSource } from '@threadlens/client'
import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../testing/panel-harness'

describe('Calls tab', () => {
  it('lists past calls, replays each from the thread before it, and diffs consecutive calls', async () => {
    const recorded = testPolicy({ name: 'recorded' })
    const oneTurn = testPolicy({ name: 'one-turn', maxTurns: 1 })
    const session = createSessionSource({
      status: 'idle',
      threadId: 'unused',
      calls: [
        { callId: 'c1', policy: recorded, model: 'gpt-4o-mini', usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64 }, stopReason: 'stop' },
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
    const changes = (change: string) => panel.queryAll(`[data-testid="call-diff"] [data-change="${change}"]`).map((item) => Number(item.dataset['seq']))
    expect(changes('leaving')).toEqual([0, 1, 2, 3, 4])
    expect(changes('entering')).toContain(6)
    // Each change says why, in words, and shows the entry's text.
    const left = panel.query('[data-testid="call-diff"] [data-change="leaving"]') as HTMLElement
    expect(left.textContent).toContain('they are older than the turns the policy keeps')
    expect(left.querySelector('[title]')?.getAttribute('title')).toBe('window: outside maxTurns / maxMessages')
    expect(left.textContent).toContain('user: question 0')
    const broke = await panel.find('prefix-break')
    expect(Number(broke.dataset['byte'])).toBeGreaterThan(0)
    expect(broke.textContent).toMatch(/the request changed in message 1 \(.*\): only the 0 messages before it \(0 tokens\) can be read from the provider's cache/)
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
    expect(c1.querySelector('[data-testid="cache-figures"]')?.textContent).toContain('no prediction: the model of the answered call before is not recorded · provider reported 64')
    panel.unmount()
  })

  it('says so when a thread has no calls', async () => {
    const panel = await renderPanel({ entries: [{ kind: 'message', payload: { role: 'user', content: 'hi' } }], tab: 'calls' })
    expect((await panel.find('calls-empty')).textContent).toContain('refs.callId')
    panel.unmount()
  })
})
