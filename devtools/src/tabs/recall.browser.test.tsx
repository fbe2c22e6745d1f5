import { createRecallIndex } from '@threadlens/core/recall'
import { describe, expect, it } from 'vitest'
import { eventually, renderPanel } from '../testing/panel-harness'
import { recallConversation, recallPolicy } from '../testing/recall-fixture'

/** Picks an option of a `<select>` as a user does (React listens to `change`). */
function choose(select: HTMLSelectElement, value: string): void {
  select.value = value
  select.dispatchEvent(new Event('change', { bubbles: true }))
}

describe('recall in the panel', () => {
  it('marks recalled entries in the timeline with the words they matched, as text', async () => {
    const panel = await renderPanel({
      entries: recallConversation(),
      policy: recallPolicy(true),
      recall: createRecallIndex(),
      tab: 'timeline',
      height: 900,
    })
    await panel.find('timeline-row')
    const count = await panel.find('timeline-count')
    await eventually(() => expect(count.textContent).toMatch(/ · \d+ recalled/))
    choose((await panel.find('timeline-fate')) as HTMLSelectElement, 'recalled')
    await eventually(() => expect(panel.queryAll('[data-testid="timeline-row"]').length).toBeGreaterThan(0))
    const rows = panel.queryAll('[data-testid="timeline-row"]')
    expect(rows.every((row) => row.dataset['state'] === 'recalled')).toBe(true)
    const first = panel.query('[data-testid="timeline-row"][data-seq="0"]') as HTMLElement
    expect(first.querySelector('[data-testid="fate-badge"]')?.textContent).toBe('recalled')
    expect(first.querySelector('[data-testid="fate-badge"]')?.className).toContain('tl-info')
    const detail = first.querySelector('[data-testid="recall-detail"]')?.textContent ?? ''
    expect(detail).toMatch(/^recalled: matched .*adoption.*agency.* \(score \d+\.\d\d\)$/)
    // Recalled rows are sent: never greyed like the rows left out.
    expect(getComputedStyle(first).color).not.toBe('rgb(154, 164, 178)')
    first.click()
    const entry = await panel.find('entry-recall')
    expect(entry.textContent).toBe(detail)
    expect(panel.root.querySelector('[data-testid="entry-detail"] script, [data-testid="entry-detail"] img')).toBeNull()
    panel.unmount()
  })

  it('gives recall its own part of the meter and of the context map, and explains it in the projection', async () => {
    // No index from the app: the panel loads its own at the first key press or click on the page.
    const panel = await renderPanel({ entries: recallConversation(), policy: recallPolicy(true), tab: 'projection' })
    const waiting = await panel.find('recall-note')
    expect(waiting.dataset['reason']).toBe('no-index')
    expect(waiting.textContent).toContain('Recall waits for its search index, which loads at the first click or key press on the page.')
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }))
    await eventually(() => expect(panel.query('[data-testid="recall-note"]')?.dataset['status']).toBe('sent'))
    await panel.click('tab-tokens')
    const part = await panel.find('meter-recall')
    expect(part.textContent).toMatch(/^recalled entries \d+ ?\(\d+(\.\d)?%\)$/)
    const swatch = part.querySelector('.tl-part-recall') as HTMLElement
    expect(getComputedStyle(swatch).backgroundColor).toBe('rgb(76, 201, 224)')
    const bar = panel.query('[role="meter"]') as HTMLElement
    expect(bar.getAttribute('aria-valuetext')).toMatch(/recalled entries \d+/)
    expect((await panel.find('context-part-recall')).textContent).toMatch(/recalled entries/)
    expect(panel.queryAll('[data-testid="context-tile"][data-part="recall"]').length).toBe(1)

    await panel.click('tab-projection')
    const note = await panel.find('recall-note')
    await eventually(() => expect(panel.query('[data-testid="segment-recall"]')).not.toBeNull())
    expect(note.dataset['status']).toBe('sent')
    expect(note.textContent).toMatch(/Recalled \d+ older entr(y|ies)/)
    expect(note.textContent).toContain('Searched for: ')
    expect((await panel.find('segment-recall')).textContent).toContain('Recalled from earlier')
    panel.unmount()
  })

  it('compares the app policy with and without recall in the policy lab', async () => {
    const panel = await renderPanel({ entries: recallConversation(), policy: recallPolicy(false), recall: createRecallIndex(), tab: 'lab' })
    await panel.click('lab-app:recall')
    const line = await panel.find('lab-recall')
    await eventually(() =>
      expect(line.textContent).toMatch(/Recall: app policy: no recall · this policy: recalled \d+ older entr(y|ies) \(\d+ tokens\)/),
    )
    const entered = await panel.find('lab-entered')
    expect(Number(entered.dataset['count'])).toBeGreaterThan(0)
    // The lab's toggle turns it off again.
    const toggle = (await panel.find('lab-field-recall')) as HTMLInputElement
    expect(toggle.checked).toBe(true)
    toggle.click()
    await eventually(() => expect(panel.query('[data-testid="lab-recall"]')).toBeNull())
    panel.unmount()
  })
})
