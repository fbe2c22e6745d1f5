import { afterEach, describe, expect, it, vi } from 'vitest'
import { conversation, eventually, renderPanel, type Harness } from '../testing/panel-harness'

// The Memory tab stands in for any tab with a bug: it throws while rendering.
let memoryTabThrows = true
vi.mock('../tabs/memory/memory-tab', () => ({
  MemoryTab: () => {
    if (memoryTabThrows) throw new TypeError('cannot read properties of undefined (reading "spaces")')
    return <p data-testid="memory-tab-fixed">memory</p>
  },
}))

let panel: Harness | undefined
afterEach(() => {
  panel?.unmount()
  panel = undefined
  memoryTabThrows = true
  vi.restoreAllMocks()
})

const rememberedTab = (storageKey: string) => (JSON.parse(localStorage.getItem(storageKey) ?? '{}') as { state?: { tab?: string } }).state?.tab

describe('a tab that throws while rendering', () => {
  it('shows the failure in its place with details and a retry, is not remembered as the tab to reopen, and leaves the panel and the page working', async () => {
    // React reports the caught error on the console; what matters here is what the page shows.
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const outside = document.createElement('button')
    outside.textContent = 'the app'
    document.body.append(outside)
    panel = await renderPanel({ entries: conversation(2), tab: 'memory' })
    const failure = await panel.find('threadlens-error')
    expect(failure.closest('[data-testid="panel-memory"]')).not.toBeNull()
    expect(failure.querySelector('[data-testid="threadlens-error-message"]')?.textContent).toBe(
      'The Memory tab could not be shown: cannot read properties of undefined (reading "spaces")',
    )
    expect(failure.querySelector('pre')?.textContent).toMatch(/^TypeError: cannot read properties/)
    // The panel reopens on the default tab, not on the one that failed.
    expect(rememberedTab(panel.storageKey)).toBe('projection')
    // The header and the other tabs still work, and so does the page around the panel.
    await panel.click('tab-timeline')
    await panel.find('panel-timeline')
    expect(rememberedTab(panel.storageKey)).toBe('timeline')
    expect(outside.isConnected).toBe(true)
    // Back to the failing tab, fixed in between: "try again" shows it, and it is remembered again.
    await panel.click('tab-memory')
    await panel.find('threadlens-error')
    expect(rememberedTab(panel.storageKey)).toBe('projection')
    memoryTabThrows = false
    await panel.click('threadlens-error-retry')
    await panel.find('memory-tab-fixed')
    await eventually(() => expect(rememberedTab(panel?.storageKey as string)).toBe('memory'))
    outside.remove()
  })
})
