import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Timeline tab', () => {
  it('marks every entry with its fate and rule, greys dropped ones, and opens an entry as copyable JSON', async () => {
    const entries = conversation(12)
    entries.push({ kind: 'context_op', payload: { op: 'pin', target: 0, reason: 'keep the first question' } })
    const opSeq = entries.length - 1
    const panel = await renderPanel({ entries, policy: testPolicy({ maxInputTokens: 900, reserveOutputTokens: 100 }), tab: 'timeline', height: 1400 })
    const first = await panel.find('timeline-row')
    expect(first.dataset['seq']).toBeDefined()
    const rows = panel.queryAll('[data-testid="timeline-row"]')
    const states = new Map(rows.map((row) => [Number(row.dataset['seq']), row.dataset['state']]))
    // Budget cut the middle: dropped rows exist and are greyed; the pinned first question is included.
    const dropped = rows.filter((row) => row.dataset['state'] === 'dropped')
    expect(dropped.length).toBeGreaterThan(0)
    const included = rows.find((row) => row.dataset['state'] === 'included') as HTMLElement
    expect(getComputedStyle(dropped[0] as HTMLElement).color).not.toBe(getComputedStyle(included).color)
    expect(dropped[0]?.title).toMatch(/budget|applied/)
    expect(states.get(0)).toBe('included')
    expect(panel.query('[data-seq="0"] .tl-badge.tl-info')?.textContent).toBe('pinned')
    expect(panel.query(`[data-seq="${opSeq}"]`)?.dataset['fate']).toBe('applied')

    // Each row shows its text, not its ids (refs are in the tooltip and the detail); a row opens with the keyboard too.
    expect(panel.query('[data-seq="1"] [data-testid="entry-preview"]')?.textContent).toBe('lookup({"turn":0})')
    expect(panel.query('[data-seq="1"]')?.title).toContain('requestId=r0 callId=c0a toolCallId=t0')
    ;(panel.query(`[data-seq="${opSeq}"]`) as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    const detail = await panel.find('entry-detail')
    expect(detail.dataset['seq']).toBe(String(opSeq))
    expect(detail.textContent).toContain('"op": "pin"')
    expect(detail.textContent).toContain('Not sent: a pin, unpin or reset changes what is sent; it is never sent itself.')
    expect(detail.querySelector('[data-testid="entry-fate-words"]')?.getAttribute('title')).toBe(
      'rule: a context op: applied to the projection, never sent',
    )
    // The detail pane never hides a row's fate or tokens.
    const row = panel.query(`[data-seq="${opSeq}"]`) as HTMLElement
    expect(row.getAttribute('aria-current')).toBe('true')
    for (const cell of [row.querySelector('[data-testid="fate-badge"]'), row.querySelector('[data-testid="entry-tokens"]')] as HTMLElement[]) {
      const box = cell.getBoundingClientRect()
      const rowBox = row.getBoundingClientRect()
      expect(box.width, cell.dataset['testid']).toBeGreaterThan(0)
      expect(box.right).toBeLessThanOrEqual(rowBox.right + 0.5)
      expect(cell.scrollWidth).toBeLessThanOrEqual(cell.clientWidth + 1)
    }
    panel.unmount()
  })

  it('filters by kind and by text', async () => {
    const panel = await renderPanel({ entries: conversation(9), tab: 'timeline' })
    await panel.find('timeline-row')
    const count = await panel.find('timeline-count')
    expect(count.textContent).toMatch(/^24 of 24 entries/)
    await panel.click('filter-message')
    await eventually(() => expect(count.textContent).toMatch(/^6 of 24 entries/))
    expect(panel.queryAll('[data-testid="timeline-row"]').every((row) => row.querySelector('.tl-kind')?.textContent?.startsWith('tool_'))).toBe(true)
    await panel.click('filter-message')
    const search = (await panel.find('timeline-search')) as HTMLInputElement
    // React listens to `input` events: set the value through the native setter, as typing does.
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set as (value: string) => void
    setValue.call(search, 'question 7')
    search.dispatchEvent(new Event('input', { bubbles: true }))
    await eventually(() => expect(count.textContent).toMatch(/^1 of 24 entries/))
    panel.unmount()
  })

  it('filters by fate, and a row opened from elsewhere is scrolled into view', async () => {
    const panel = await renderPanel({
      entries: conversation(40),
      tab: 'timeline',
      height: 500,
      policy: testPolicy({ maxInputTokens: 1200, reserveOutputTokens: 100 }),
    })
    await panel.find('timeline-row')
    const fate = (await panel.find('timeline-fate')) as HTMLSelectElement
    expect([...fate.options].map((option) => option.value)).toContain('dropped:budget')
    fate.value = 'dropped:budget'
    fate.dispatchEvent(new Event('change', { bubbles: true }))
    const count = await panel.find('timeline-count')
    await eventually(() => expect(count.textContent).not.toMatch(/^(\d+) of \1 entries/))
    expect(panel.queryAll('[data-testid="timeline-row"]').every((row) => row.dataset['fate'] === 'budget')).toBe(true)
    // An entry opened from elsewhere that the filters hide says so, and one click shows it.
    fate.value = 'sent'
    fate.dispatchEvent(new Event('change', { bubbles: true }))
    await panel.click('tab-projection')
    ;((await panel.find('left-out')).querySelector('button') as HTMLButtonElement).click()
    expect((await panel.find('timeline-hidden-selection')).textContent).toMatch(/^#0 is open but hidden by the filters/)
    expect(panel.query('[data-testid="entry-detail"]')?.dataset['seq']).toBe('0')
    ;(panel.query('[data-testid="timeline-hidden-selection"] button') as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="timeline-hidden-selection"]')).toBeNull())
    expect(((await panel.find('timeline-fate')) as HTMLSelectElement).value).toBe('all')
    // The first entry, far above the end the list opens at, is brought into view when opened.
    await panel.click('tab-projection')
    const leftOut = await panel.find('left-out')
    ;(leftOut.querySelector('button') as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="timeline-row"][data-seq="0"]')).not.toBeNull())
    panel.unmount()
  })

  it('virtualizes: a 10,000-entry thread puts only a screenful of rows in the DOM, and follows appends', async () => {
    const entries = conversation(4000, 3).slice(0, 10_000)
    const panel = await renderPanel({ entries, tab: 'timeline', height: 500 })
    await panel.find('timeline-row')
    const list = await panel.find('timeline')
    expect(list.dataset['count']).toBe('10000')
    const rendered = panel.queryAll('[data-testid="timeline-row"]').length
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(80)
    // It starts at the newest entry and stays there as entries arrive.
    await eventually(() => expect(panel.query('[data-seq="9999"]')).not.toBeNull())
    await panel.stores.threads.append(panel.threadId, { kind: 'message', payload: { role: 'user', content: 'the newest question' } })
    await eventually(() => expect(panel.query('[data-seq="10000"]')?.textContent).toContain('the newest question'))
    panel.unmount()
  })
})
