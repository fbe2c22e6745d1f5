import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../testing/panel-harness'

describe('Left out', () => {
  it('says what the request leaves out, grouped by reason with ranges, counts and tokens', async () => {
    const entries = conversation(60, 20)
    const panel = await renderPanel({ entries, tab: 'projection', policy: testPolicy({ maxInputTokens: 1500, reserveOutputTokens: 200, maxTurns: 20 }) })
    const card = await panel.find('left-out')
    const groups = panel.queryAll('[data-testid="left-out-group"]')
    const reasons = groups.map((group) => group.dataset['reason'])
    expect(reasons[0]).toBe('budget')
    const total = groups.reduce((sum, group) => sum + Number(group.dataset['count']), 0)
    expect(Number(card.dataset['count'])).toBe(total)
    // Tokens follow in a deferred render.
    await eventually(() => expect(card.querySelector('h3')?.textContent).toMatch(new RegExp(`^Left out: ${total} entries \\([\\d,]+ tokens as written\\)$`)))
    expect(groups[0]?.textContent).toContain('#0–#')
    expect(groups[0]?.textContent).toContain('did not fit the token budget')
    // A range opens the timeline at its first entry.
    ;(groups[0]?.querySelector('button') as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="entry-detail"]')?.dataset['seq']).toBe('0'))
    panel.unmount()
  })

  it('says nothing is left out when the whole thread fits', async () => {
    const panel = await renderPanel({ entries: conversation(2), tab: 'projection', policy: testPolicy({ maxInputTokens: 100_000 }) })
    expect((await panel.find('left-out')).textContent).toBe('Nothing left out: every entry of the thread is sent as written.')
    panel.unmount()
  })
})
