import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Left out', () => {
  it('says what the request leaves out, grouped by reason with ranges, counts and tokens', async () => {
    const entries = conversation(60, 20)
    const panel = await renderPanel({
      entries,
      tab: 'projection',
      policy: testPolicy({ maxInputTokens: 1500, reserveOutputTokens: 200, maxTurns: 20 }),
    })
    const card = await panel.find('left-out')
    const groups = panel.queryAll('[data-testid="left-out-group"]')
    const reasons = groups.map((group) => group.dataset['reason'])
    expect(reasons[0]).toBe('budget')
    const total = groups.reduce((sum, group) => sum + Number(group.dataset['count']), 0)
    expect(Number(card.dataset['count'])).toBe(total)
    // Tokens follow in a deferred render.
    await eventually(() =>
      expect(card.querySelector('h3')?.textContent).toMatch(new RegExp(`^Left out: ${total} entries \\([\\d,]+ tokens as written\\)$`)),
    )
    expect(groups[0]?.textContent).toContain('#0–#')
    // What happened and what to change, in words; the projector's rule in the tooltip.
    expect(groups[0]?.querySelector('[data-testid="left-out-why"]')?.textContent).toMatch(
      /^Left out: they did not fit the room the request has \([\d,]+ tokens: maxInputTokens minus reserveOutputTokens\); the newest are kept first\. Raise maxInputTokens/,
    )
    expect(groups[0]?.querySelector('[data-testid="left-out-why"]')?.getAttribute('title')).toBe(
      'rule: did not fit the token budget (newest first, contiguous)',
    )
    // A range opens the timeline at its first entry.
    ;(groups[0]!.querySelector('button') as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="entry-detail"]')?.dataset['seq']).toBe('0'))
    panel.unmount()
  })

  // Repeated on purpose: the harness's render-a-panel setup, as in devtools/src/tabs/tokens/tokens-tab.browser.test.tsx (other tab, other policy).
  it('counts every group listed under the heading, masked ones too (entries and tokens)', async () => {
    const entries = conversation(24, 20)
    const panel = await renderPanel({
      entries,
      tab: 'projection',
      policy: testPolicy({ maxInputTokens: 1200, reserveOutputTokens: 200, toolTrace: 'masked' }),
    })
    const card = await panel.find('left-out')
    const groups = panel.queryAll('[data-testid="left-out-group"]')
    expect(groups.map((group) => group.dataset['reason'])).toEqual(expect.arrayContaining(['budget', 'masked']))
    const count = (group: HTMLElement) => Number(group.dataset['count'])
    const total = groups.reduce((sum, group) => sum + count(group), 0)
    const notSent = groups.filter((group) => group.dataset['reason'] !== 'masked').reduce((sum, group) => sum + count(group), 0)
    // What each group lists, as the user reads it: its entries and its tokens.
    const read = (text: string | null | undefined, pattern: RegExp) => Number(pattern.exec(text ?? '')?.[1]?.replaceAll(',', ''))
    await eventually(() => expect(groups.every((group) => /[\d,]+ tokens/.test(group.textContent ?? ''))).toBe(true))
    const tokens = groups.reduce((sum, group) => sum + read(group.textContent, /([\d,]+) tokens/), 0)
    const heading = card.querySelector('h3')?.textContent
    expect(heading).toMatch(/^Left out or shortened: /)
    expect(read(heading, /: ([\d,]+) entries/)).toBe(total)
    expect(read(heading, /\(([\d,]+) tokens as written\)/)).toBe(tokens)
    expect(heading).toContain(`${notSent} not sent, ${total - notSent} sent shortened`)
    expect(Number(card.dataset['count'])).toBe(total)
    panel.unmount()
  })

  it('says nothing is left out when the whole thread fits', async () => {
    const panel = await renderPanel({ entries: conversation(2), tab: 'projection', policy: testPolicy({ maxInputTokens: 100_000 }) })
    expect((await panel.find('left-out')).textContent).toBe('Nothing left out: every entry of the thread is sent as written.')
    panel.unmount()
  })
})
