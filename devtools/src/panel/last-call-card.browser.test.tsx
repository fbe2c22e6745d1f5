import { createSessionSource } from '@threadlens/client'
import { afterEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { conversation, eventually, renderPanel, testPolicy, type Harness } from '../testing/panel-harness'
import { recordAttempts } from '../testing/varied-threads'

let panel: Harness | undefined
afterEach(() => {
  panel?.unmount()
  panel = undefined
})

const fact = (name: string) => panel?.query(`[data-testid="last-call"] [data-fact="${name}"]`)?.textContent

describe('the last call at a glance', () => {
  it('says how the newest call ended, what it sent of the budget, what it left out and why, the cache, cost and latency', async () => {
    await page.viewport(1440, 900)
    const policy = testPolicy({ name: 'recorded', maxTurns: 2 })
    const session = createSessionSource({
      status: 'idle',
      threadId: 'unused',
      calls: [
        { callId: 'c5', policy, model: 'gpt-4o-mini', usage: { inputTokens: 900, outputTokens: 40, cachedInputTokens: 512 }, stopReason: 'stop' },
      ],
    })
    panel = await renderPanel({ entries: conversation(6), session, policy, tab: 'projection' })
    const card = await panel.find('last-call')
    await eventually(() => expect(fact('sent')).toMatch(/^sent \d+ messages, [\d,]+ of 7,168 tokens \(\d+(\.\d)?%\)$/))
    expect(card.dataset['status']).toBe('ok')
    expect(fact('status')).toBe('answered')
    expect(fact('left-out')).toMatch(/^\d+ entries left out, mostly they are older than the turns the policy keeps$/)
    expect(fact('cache')).toBe('cache hit: 512 tokens read')
    // The cost comes with the model prices, loaded at the visitor's first interaction with the page.
    document.dispatchEvent(new Event('pointerdown', { bubbles: true }))
    await eventually(() => expect(fact('cost')).toMatch(/^\$0\.\d{4}$/))
    await page.screenshot({ path: '../../../test-results/devtools-last-call-1440.png', element: panel.root.host as HTMLElement })
    // One click away from the call in full.
    card.click()
    await panel.find('panel-calls')
    await eventually(() => expect(panel?.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('c5'))
  })

  it('puts a failed or stopped call first, and stays one line on a phone', async () => {
    await page.viewport(390, 844)
    const policy = testPolicy()
    panel = await renderPanel({ entries: conversation(2), policy, tab: 'projection', width: 390 })
    await recordAttempts(panel.stores, panel.threadId, policy)
    const card = await panel.find('last-call')
    await eventually(() => expect(fact('status')).toBe('stopped before it answered'))
    expect(card.dataset['status']).toBe('aborted')
    expect(fact('latency')).toBe('first token 380 ms, took 2.1 s')
    const lineHeight = Number.parseFloat(getComputedStyle(card).lineHeight)
    expect(card.getBoundingClientRect().height).toBeLessThan(lineHeight * 2)
    // Cut with an ellipsis, the whole of it in the tooltip.
    expect(getComputedStyle(card).textOverflow).toBe('ellipsis')
    expect(card.title).toMatch(/^Last call: stopped before it answered · /)
    await page.screenshot({ path: '../../../test-results/devtools-last-call-390.png', element: panel.root.host as HTMLElement })
  })

  it('is not there before the first call', async () => {
    panel = await renderPanel({ entries: [{ kind: 'message', payload: { role: 'user', content: 'hi' } }] })
    await panel.find('panel-projection')
    expect(panel.query('[data-testid="last-call"]')).toBeNull()
  })
})
