import { describe, expect, it, vi } from 'vitest'
import { meterLegendIds } from '../../testing/meter-legend'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Tokens tab', () => {
  it('stacks every part with numbers and shares of the input budget, reserved output apart, and says the counts are estimated', async () => {
    const panel = await renderPanel({
      entries: conversation(3),
      tab: 'tokens',
      policy: testPolicy({ maxInputTokens: 4000, reserveOutputTokens: 1000, systemPrompt: 'Hi.' }),
    })
    const meter = await panel.find('token-meter')
    expect(meter.dataset['level']).toBe('ok')
    expect(meter.dataset['budget']).toBe('3000')
    expect(meter.dataset['exact']).toBe('false')
    const legend = await panel.find('meter-legend')
    const parts = panel.queryAll('[data-testid="meter-legend"] > li').map((part) => part.dataset['testid'])
    expect(parts).toEqual(meterLegendIds)
    expect(legend.textContent).toContain('reserved output 1,000(for output)')
    // Input parts and free space are shares of the 3,000-token input budget: they add up to 100%.
    const shares = panel.queryAll('[data-testid="meter-legend"] > li .tl-meter-muted').map((cell) => cell.textContent ?? '')
    expect(shares.filter((share) => share.endsWith('%)')).length).toBe(7)
    expect((await panel.find('meter-counter')).textContent).toBe('estimated · heuristic')
    expect((await panel.find('meter-cost')).textContent).toContain('set policy.model')
    panel.unmount()
  })

  // Repeated on purpose: the harness's render-a-panel setup, as in devtools/src/tabs/projection/left-out-list.browser.test.tsx (other tab, other policy).
  it('turns amber over 75% and red over 90% of the input budget, and estimates cost for a known model', async () => {
    const entries = conversation(6, 60)
    const amber = await renderPanel({
      entries,
      tab: 'tokens',
      policy: testPolicy({ maxInputTokens: 1560, reserveOutputTokens: 100, model: 'gpt-4o-mini' }),
    })
    const amberMeter = await amber.find('token-meter')
    const fill = Number(amberMeter.dataset['total']) / Number(amberMeter.dataset['budget'])
    expect(fill).toBeGreaterThan(0.75)
    expect(fill).toBeLessThanOrEqual(0.9)
    expect(amberMeter.dataset['level']).toBe('amber')
    expect((await amber.find('meter-cost')).textContent).toMatch(/gpt-4o-mini list prices: \$0\.000\d+ input/)
    amber.unmount()
    const full = await renderPanel({
      entries: conversation(40, 60),
      tab: 'tokens',
      policy: testPolicy({ maxInputTokens: 1200, reserveOutputTokens: 100 }),
    })
    expect((await full.find('token-meter')).dataset['level']).toBe('red')
    full.unmount()
  })

  it('counts the memory segment the app sends, so the meter matches the request', async () => {
    const policy = testPolicy({ maxInputTokens: 4000, reserveOutputTokens: 1000 })
    const without = await renderPanel({ entries: conversation(2), tab: 'tokens', policy })
    const plain = Number((await without.find('token-meter')).dataset['total'])
    without.unmount()
    const memory = 'Memory (rev 3): what you know and intend now.\n\n[world] (map, rev 3)\ndestination: "Oslo"'
    const withMemory = await renderPanel({ entries: conversation(2), tab: 'tokens', policy, memory })
    await vi.waitFor(async () => expect(Number((await withMemory.find('token-meter')).dataset['total'])).toBeGreaterThan(plain + 10))
    withMemory.unmount()
  })

  it('lists what wastes the window, each finding a click from its entry in the timeline, and nothing as text turned into markup', async () => {
    const entries = conversation(4)
    // Turn 0's tool result, made huge, and with markup in it that must stay text.
    entries[2] = {
      kind: 'tool_result',
      payload: { name: 'lookup', result: `<img src=x onerror=alert(1)> ${'row '.repeat(3000)}` },
      refs: { requestId: 'r0', toolCallId: 't0' },
    }
    const panel = await renderPanel({ entries, tab: 'tokens', policy: testPolicy({ maxInputTokens: 16_000, reserveOutputTokens: 1000 }) })
    const list = await panel.find('findings')
    const large = await eventually(() => {
      const found = panel.query('[data-testid="finding"][data-kind="large-tool-result"]')
      if (found === null) throw new Error('no large tool result finding')
      return found
    })
    expect(large.dataset['seq']).toBe('2')
    expect(large.textContent).toContain('#2 (lookup)')
    expect(list.querySelector('img')).toBeNull()
    ;(large.querySelector('[data-testid="finding-open"]') as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="tab-timeline"]')?.getAttribute('aria-selected')).toBe('true'))
    expect((await panel.find('entry-detail')).textContent).toContain('#2')
    // The suggested setting is a click from its preview in the Policy lab, which then sends fewer tokens.
    const before = Number((await panel.find('meter-compact')).dataset['total'])
    await panel.click('tab-tokens')
    const saving = await eventually(() => {
      const found = panel.query('[data-testid="finding"][data-kind="policy-saving"] [data-testid="finding-preview"]')
      if (found === null) throw new Error('no policy change to preview')
      return found
    })
    expect(saving.textContent).toBe("preview toolTrace: 'masked'")
    saving.click()
    await eventually(() => expect(panel.query('[data-testid="tab-lab"]')?.getAttribute('aria-selected')).toBe('true'))
    await panel.find('preview-badge')
    await eventually(() => expect(Number(panel.query('[data-testid="meter-compact"]')?.dataset['total'])).toBeLessThan(before - 1000))
    panel.unmount()
    const quiet = await renderPanel({ entries: conversation(2), tab: 'tokens', policy: testPolicy({ maxInputTokens: 16_000 }) })
    expect((await quiet.find('findings')).textContent).toBe('Findings: nothing wastes the window')
    quiet.unmount()
  })
})
