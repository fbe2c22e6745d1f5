import { describe, expect, it, vi } from 'vitest'
import { tabIds } from './tab-registry'
import { eventually, renderPanel } from '../testing/panel-harness'
import { loadedTab } from './tab-loaders'

// The Storage tab's module fails to load, as its chunk would on a dropped connection.
vi.mock('../tabs/storage/storage-tab', () => ({
  get StorageTab(): never {
    throw new Error('network error')
  },
}))

/** Every state the tab panel was in while marked busy: which tab it showed, and whether the projection's messages were there. */
function watchBusy(root: ShadowRoot): { states(): string[]; stop(): void } {
  const states: string[] = []
  const observer = new MutationObserver(() => {
    const body = root.querySelector('[role="tabpanel"]')
    if (body?.getAttribute('aria-busy') !== 'true') return
    states.push(`${body.getAttribute('data-testid')}${body.querySelector('[data-testid="projected-messages"]') === null ? ' (empty)' : ''}`)
  })
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] })
  return { states: () => [...new Set(states)], stop: () => observer.disconnect() }
}

// One file, one page: the tests run in order, and what a test loaded stays loaded for the next.
describe('Tab chunks', () => {
  it('open on their first tab with its code only; a tab selected before its chunk is in keeps the shown one, marked busy, until it is', async () => {
    const panel = await renderPanel({ tab: 'projection' })
    const body = await panel.find('panel-projection')
    await panel.find('projected-messages')
    expect(body.getAttribute('aria-busy')).toBeNull()
    // Nobody has pressed, typed or tapped (element.click() is neither): no other tab was fetched.
    expect(tabIds.filter((tab) => loadedTab(tab) !== undefined)).toEqual(['projection'])

    const busy = watchBusy(panel.root)
    ;(await panel.find('tab-tokens')).click()
    // Until the Tokens tab is in, the body went on showing the projection, marked busy.
    const tokens = await panel.find('panel-tokens')
    expect(busy.states()).toEqual(['panel-projection'])
    busy.stop()
    expect(tokens.getAttribute('aria-busy')).toBeNull()
    expect(tokens.getAttribute('aria-labelledby')).toBe(panel.query('[data-testid="tab-tokens"]')?.id)
    expect(panel.query('[data-testid="panel-projection"]')).toBeNull()
    panel.unmount()
  })

  it('say so when a tab cannot load, and the other tabs still work', async () => {
    const panel = await renderPanel({ tab: 'memory' })
    await panel.find('panel-memory')
    ;(await panel.find('tab-storage')).click()
    const error = await panel.find('tab-load-error')
    expect(error.getAttribute('role')).toBe('alert')
    expect(error.textContent).toBe('[threadlens] the Storage tab could not load (network error).')
    expect(panel.query('[role="tabpanel"]')?.dataset['testid']).toBe('panel-storage')
    expect(panel.query('[role="tabpanel"]')?.getAttribute('aria-busy')).toBeNull()
    ;(await panel.find('tab-memory')).click()
    await panel.find('panel-memory')
    expect(panel.query('[data-testid="tab-load-error"]')).toBeNull()
    panel.unmount()
  })

  it('come in one by one after the first press on the page, so switching finds them loaded', async () => {
    const panel = await renderPanel({ tab: 'projection' })
    await panel.find('projected-messages')
    expect(loadedTab('timeline')).toBeUndefined()
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    await eventually(() => expect(tabIds.filter((tab) => loadedTab(tab) === undefined)).toEqual(['storage']))
    const busy = watchBusy(panel.root)
    ;(await panel.find('tab-timeline')).click()
    await panel.find('panel-timeline')
    // Loaded already: the Timeline replaced the projection at once, never marked busy.
    expect(busy.states()).toEqual([])
    busy.stop()
    panel.unmount()
  })
})
