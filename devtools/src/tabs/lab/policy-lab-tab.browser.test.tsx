import { describe, expect, it, vi } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

function setInput(input: HTMLInputElement, value: string): void {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set as (value: string) => void
  setValue.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

describe('Policy lab', () => {
  it('previews a preset at once (diff, meter, timeline) and never writes to the thread', async () => {
    const tiny = testPolicy({ name: 'tiny', maxInputTokens: 700, reserveOutputTokens: 100 })
    const panel = await renderPanel({
      entries: conversation(10),
      tab: 'lab',
      policy: testPolicy({ maxInputTokens: 100_000 }),
      policies: [{ id: 'tiny', label: 'tiny', policy: tiny }],
    })
    const append = vi.spyOn(panel.stores.threads, 'append')
    const appendMany = vi.spyOn(panel.stores.threads, 'appendMany')
    const compact = await panel.find('meter-compact')
    const before = Number(compact.dataset['total'])
    await eventually(() => expect(panel.query('[data-testid="lab-token-delta"]')?.textContent).toBe('±0'))

    await panel.click('lab-tiny')
    await eventually(() => expect(Number(panel.query('[data-testid="meter-compact"]')?.dataset['total'])).toBeLessThan(before))
    expect(Number(panel.query('[data-testid="lab-left"]')?.dataset['count'])).toBeGreaterThan(0)
    expect(panel.query('[data-testid="lab-entered"]')?.dataset['count']).toBe('0')
    expect(panel.query('[data-testid="lab-token-delta"]')?.textContent).toMatch(/^−/)
    expect(panel.query('[data-testid="lab-changed"]')?.textContent).toContain('maxInputTokens: 100000 → 700')
    expect(panel.query('[data-testid="preview-badge"]')).not.toBeNull()

    // A field edited live: fewer turns, more entries leave.
    const leftWithTiny = Number(panel.query('[data-testid="lab-left"]')?.dataset['count'])
    setInput((await panel.find('lab-field-maxTurns')) as HTMLInputElement, '1')
    await eventually(() => expect(Number(panel.query('[data-testid="lab-left"]')?.dataset['count'])).toBeGreaterThan(leftWithTiny))
    // An invalid value is reported, and the last valid policy stays.
    setInput((await panel.find('lab-field-reserveOutputTokens')) as HTMLInputElement, '5000')
    expect((await panel.find('lab-error')).textContent).toContain('reserveOutputTokens')

    await panel.click('tab-timeline')
    await eventually(() => expect(panel.queryAll('[data-testid="timeline-row"][data-state="dropped"]').length).toBeGreaterThan(0))
    expect(panel.query('[data-testid="timeline-row"][data-state="dropped"]')?.dataset['fate']).toMatch(/window|budget/)

    expect(append).not.toHaveBeenCalled()
    expect(appendMany).not.toHaveBeenCalled()
    expect((await panel.stores.threads.get(panel.threadId))?.entryCount).toBe(conversation(10).length)
    panel.unmount()
  })

  it('sets the two requests side by side: leaving, entering and changing form, with text and token changes', async () => {
    const whole = testPolicy({ name: 'whole', maxInputTokens: 100_000, toolTrace: 'transparent', maxTurns: 8 })
    const panel = await renderPanel({
      entries: conversation(16),
      tab: 'lab',
      width: 900,
      policy: testPolicy({ maxInputTokens: 100_000, toolTrace: 'masked' }),
      policies: [{ id: 'whole', label: 'whole', policy: whole }],
    })
    await panel.find('lab-columns')
    await panel.click('lab-whole')
    await eventually(() => expect(Number(panel.query('[data-testid="lab-reshaped"]')?.dataset['count'])).toBeGreaterThan(0))
    const before = await panel.find('lab-before')
    const after = await panel.find('lab-after')
    const leaving = before.querySelector('[data-change="leaving"]') as HTMLElement
    expect(leaving.textContent).toContain('they are older than the turns the policy keeps')
    expect(leaving.textContent).toContain('question 0 lorem')
    expect(leaving.textContent).toMatch(/\(−[\d,]+\)/)
    const changed = after.querySelector('[data-change="changed"]') as HTMLElement
    expect(changed.textContent).toContain('masked → sent whole')
    expect(changed.textContent).toContain('"rows":[1,2,3]')
    // The placeholder may be longer than a tiny result: the change has a sign either way.
    expect(changed.textContent).toMatch(/\([+−±][\d,]+\)/)
    expect(after.querySelector('[data-change="leaving"]')).toBeNull()
    // Side by side when there is room, and the options never cover the lists.
    expect(before.getBoundingClientRect().top).toBeCloseTo(after.getBoundingClientRect().top, 0)
    const form = (await panel.find('lab-form')).getBoundingClientRect()
    expect(form.bottom).toBeLessThanOrEqual((await panel.find('lab-diff')).getBoundingClientRect().top)
    panel.unmount()
  })

  it('offers a policy per model', async () => {
    const panel = await renderPanel({ entries: conversation(2), tab: 'lab' })
    const select = (await panel.find('lab-model')) as HTMLSelectElement
    expect([...select.options].some((option) => option.value === 'claude-sonnet-4-5')).toBe(true)
    select.value = 'gpt-4o-mini'
    select.dispatchEvent(new Event('change', { bubbles: true }))
    await eventually(() => expect(panel.query('[data-testid="lab-changed"]')?.textContent).toContain('model: unset → "gpt-4o-mini"'))
    panel.unmount()
  })
})
