import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Next call vs the last one', () => {
  it('folds what the next call changes against the last recorded one into one line, details on demand', async () => {
    const entries = conversation(6)
    entries.push({ kind: 'message', payload: { role: 'user', content: 'and one more question' }, refs: { requestId: 'r9' } })
    const panel = await renderPanel({ entries, tab: 'projection', policy: testPolicy({ maxInputTokens: 100_000 }) })
    const card = await panel.find('next-vs-last')
    // conversation(6) ends with call c5's reply; the next call adds it and the new question.
    await eventually(() =>
      expect(card.querySelector('summary')?.textContent).toMatch(
        /\(call \d+ of \d+\): \+[\d,]+ tokens .* 2 entering · 0 leaving · 0 changing form · the provider’s cache keeps matching/,
      ),
    )
    ;(card.querySelector('summary') as HTMLElement).click()
    const diff = await panel.find('next-vs-last-diff')
    const entering = [...diff.querySelectorAll('[data-change="entering"]')].map((item) => item.textContent ?? '')
    expect(entering).toHaveLength(2)
    expect(entering[1]).toContain('and one more question')
    panel.unmount()
  })

  it('stays away when the thread has no calls', async () => {
    const panel = await renderPanel({ entries: [{ kind: 'message', payload: { role: 'user', content: 'hi' } }], tab: 'projection' })
    await panel.find('left-out')
    expect(panel.query('[data-testid="next-vs-last"]')).toBeNull()
    panel.unmount()
  })
})
