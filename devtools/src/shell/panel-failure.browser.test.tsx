import { createThreadlensClient } from '@threadlens/client'
import { createMemoryBackedStores } from '@threadlens/store'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { describe, expect, it, vi } from 'vitest'
import { page } from 'vitest/browser'
import { eventually, testPolicy } from '../testing/panel-harness'
import { ThreadlensDevtools } from './devtools'

// The panel's header stands in for any part of the panel outside the tabs with a bug.
vi.mock('../panel/panel-header', () => ({
  PanelHeader: () => {
    throw new Error('header exploded')
  },
  tabElementId: (base: string, tab: string) => `${base}-tab-${tab}`,
  tabPanelId: (base: string, tab: string) => `${base}-panel-${tab}`,
}))

describe('the devtools panel failing as a whole', () => {
  it('says so in its frame, keeps its dock controls so it can be closed, and the app keeps running', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await page.viewport(1024, 768)
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    const container = document.createElement('div')
    const app = document.createElement('p')
    app.textContent = 'the app'
    document.body.append(app, container)
    const root = createRoot(container)
    const client = createThreadlensClient({ threads: stores.threads })
    flushSync(() =>
      root.render(
        <ThreadlensDevtools client={client} threadId={record.id} policy={testPolicy()} storageKey={`panel-failure-${Date.now()}`} initialIsOpen />,
      ),
    )
    const shadow = (container.querySelector('[data-testid="threadlens-devtools"]') as HTMLElement).shadowRoot as ShadowRoot
    const failure = await eventually(() => {
      const element = shadow.querySelector<HTMLElement>('[data-testid="panel-failure"]')
      if (element === null) throw new Error('no failure shown yet')
      return element
    })
    expect(failure.querySelector('[data-testid="threadlens-error-message"]')?.textContent).toBe(
      'The threadlens devtools panel could not be shown: header exploded',
    )
    expect(app.isConnected && app.textContent === 'the app').toBe(true)
    const close = failure.querySelector<HTMLElement>('[data-testid="devtools-close"]')
    expect(close).not.toBeNull()
    close?.click()
    await eventually(() => expect(shadow.querySelector('[data-testid="devtools-toggle"]')).not.toBeNull())
    root.unmount()
    container.remove()
    app.remove()
  })
})
