import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel } from '../../testing/panel-harness'

describe('Views tab', () => {
  it('shows the conversation view beside the reasoning view, or one of them', async () => {
    const panel = await renderPanel({ entries: conversation(3), tab: 'views', height: 1200 })
    const conversationView = await panel.find('conversation-view')
    const reasoningView = await panel.find('reasoning-view')
    await eventually(() => expect(conversationView.querySelectorAll('[data-testid="view-message"]').length).toBe(6))
    expect(conversationView.querySelectorAll('[data-testid="view-tool"]').length).toBe(0)
    expect(reasoningView.querySelectorAll('[data-testid="view-tool"]').length).toBe(1)
    expect(reasoningView.querySelector('[data-testid="view-tool"]')?.textContent).toContain('lookup')
    // Each view says what it is for, and they look different: chat bubbles against a monospace trace.
    expect((await panel.find('conversation-explain')).textContent).toContain('tool traffic hidden')
    expect((await panel.find('reasoning-explain')).textContent).toContain('every tool call')
    const chatItem = conversationView.querySelector('.tl-view-item') as HTMLElement
    const traceItem = reasoningView.querySelector('.tl-view-item') as HTMLElement
    expect(getComputedStyle(chatItem).borderLeftColor).not.toBe(getComputedStyle(traceItem).borderLeftColor)
    expect(getComputedStyle(traceItem).fontFamily).toMatch(/mono/i)
    expect(conversationView.querySelector('.tl-bubble-user')).not.toBeNull()
    await panel.click('view-reasoning')
    await eventually(() => expect(panel.query('[data-testid="conversation-view"]')).toBeNull())
    expect(panel.query('[data-testid="reasoning-view"]')).not.toBeNull()
    panel.unmount()
  })

  it('colours any message by its token boundaries on demand, as text', async () => {
    const panel = await renderPanel({
      entries: [{ kind: 'message', payload: { role: 'user', content: 'The quick <b>brown</b> fox' } }],
      tab: 'views',
      height: 800,
    })
    const view = await panel.find('conversation-view')
    await eventually(() => expect(view.querySelector('[data-testid="token-toggle"]')).not.toBeNull())
    ;(view.querySelector('[data-testid="token-toggle"]') as HTMLButtonElement).click()
    const text = await eventually(() => {
      const element = view.querySelector<HTMLElement>('[data-testid="token-text"]')
      if (element === null) throw new Error('not yet')
      return element
    })
    const tokens = [...text.querySelectorAll('[data-testid="token"]')].map((token) => token.textContent)
    expect(tokens.join('')).toBe('The quick <b>brown</b> fox')
    expect(tokens.length).toBe(Number(text.dataset['tokens']))
    expect(tokens.length).toBeGreaterThan(4)
    expect(text.querySelector('b')).toBeNull()
    panel.unmount()
  })
})
