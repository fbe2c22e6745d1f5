import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensProvider } from '@threadlens/react'
import { createMemoryBackedStores } from '@threadlens/store'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { describe, expect, it } from 'vitest'
import { ThreadlensDevtools, ThreadlensDevtoolsPanel } from './index'

describe('the root export outside production', () => {
  it('renders the toggle and the embeddable panel, reading the client from the provider', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    const container = document.createElement('div')
    document.body.append(container)
    const root = createRoot(container)
    flushSync(() =>
      root.render(
        <ThreadlensProvider client={createThreadlensClient({ threads: stores.threads })}>
          <ThreadlensDevtools threadId={record.id} storageKey={`root-export-${Date.now()}`} />
          <ThreadlensDevtoolsPanel threadId={record.id} storageKey={`root-export-panel-${Date.now()}`} style={{ display: 'block', height: 300 }} />
        </ThreadlensProvider>,
      ),
    )
    const toggle = container.querySelector('[data-testid="threadlens-devtools"]')?.shadowRoot?.querySelector('[data-testid="devtools-toggle"]')
    expect(toggle?.textContent).toContain('threadlens')
    const panelRoot = container.querySelector('[data-testid="threadlens-devtools-panel"]')?.shadowRoot as ShadowRoot
    await expect.poll(() => panelRoot.querySelector('[data-testid="threadlens-panel"]') !== null, { timeout: 10_000 }).toBe(true)
    flushSync(() => root.unmount())
    container.remove()
  })

  it('without a client, the panel says how to give it one', async () => {
    const container = document.createElement('div')
    document.body.append(container)
    const root = createRoot(container)
    flushSync(() => root.render(<ThreadlensDevtoolsPanel threadId="t" storageKey={`no-client-${Date.now()}`} />))
    const panelRoot = container.querySelector('[data-testid="threadlens-devtools-panel"]')?.shadowRoot as ShadowRoot
    await expect.poll(() => panelRoot.querySelector('[role="alert"]')?.textContent ?? '', { timeout: 10_000 }).toContain('createThreadlensClient')
    flushSync(() => root.unmount())
    container.remove()
  })
})
