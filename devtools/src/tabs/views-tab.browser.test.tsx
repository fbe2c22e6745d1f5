import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel } from '../testing/panel-harness'

describe('Views tab', () => {
  it('shows the conversation view beside the reasoning view, or one of them', async () => {
    const panel = await renderPanel({ entries: conversation(3), tab: 'views', height: 1200 })
    const conversationView = await panel.find('conversation-view')
    const reasoningView = await panel.find('reasoning-view')
    await eventually(() => expect(conversationView.querySelectorAll('[data-testid="view-message"]').length).toBe(6))
    expect(conversationView.querySelectorAll('[data-testid="view-tool"]').length).toBe(0)
    expect(reasoningView.querySelectorAll('[data-testid="view-tool"]').length).toBe(1)
    expect(reasoningView.querySelector('[data-testid="view-tool"]')?.textContent).toContain('lookup')
    await panel.click('view-reasoning')
    await eventually(() => expect(panel.query('[data-testid="conversation-view"]')).toBeNull())
    expect(panel.query('[data-testid="reasoning-view"]')).not.toBeNull()
    panel.unmount()
  })
})
