import { createThreadlensClient } from '@threadlens/client'
import { createMemoryBackedStores } from '@threadlens/store'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { closeDevtools, openDevtools, toggleDevtools } from '../view-models/ui-state'
import { eventually, testPolicy } from '../testing/panel-harness'
import { ThreadlensDevtools, type ThreadlensDevtoolsProps } from './devtools'

const cleanups: (() => void)[] = []
// Wide enough for a right dock (narrower windows show it at the bottom: tested below).
beforeEach(async () => {
  await page.viewport(1024, 768)
})
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

let keys = 0

async function mount(props: Partial<ThreadlensDevtoolsProps> & { storageKey?: string } = {}) {
  const stores = createMemoryBackedStores()
  const record = await stores.threads.create()
  await stores.threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'hello' } })
  const storageKey = props.storageKey ?? `shell-test-${++keys}-${Date.now()}`
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  const client = createThreadlensClient({ threads: stores.threads })
  flushSync(() => root.render(<ThreadlensDevtools client={client} threadId={record.id} policy={testPolicy()} storageKey={storageKey} {...props} />))
  const shadow = (container.querySelector('[data-testid="threadlens-devtools"]') as HTMLElement).shadowRoot as ShadowRoot
  const query = (testId: string) => shadow.querySelector<HTMLElement>(`[data-testid="${testId}"]`)
  const find = (testId: string) =>
    eventually(() => {
      const element = query(testId)
      if (element === null) throw new Error(`no ${testId}`)
      return element
    })
  cleanups.push(() => {
    root.unmount()
    container.remove()
  })
  return { storageKey, shadow, query, find }
}

function stored(storageKey: string): Record<string, unknown> {
  return (JSON.parse(localStorage.getItem(storageKey) ?? '{}') as { state?: Record<string, unknown> }).state ?? {}
}

describe('<ThreadlensDevtools>', () => {
  it('a toggle button in the chosen corner opens the lazy panel; close brings the button back; state is remembered', async () => {
    const shell = await mount({ buttonPosition: 'top-left' })
    const toggle = await shell.find('devtools-toggle')
    expect(toggle.className).toContain('tl-toggle-top-left')
    expect(shell.query('threadlens-panel')).toBeNull()
    toggle.click()
    await shell.find('threadlens-panel')
    expect(shell.query('devtools-toggle')).toBeNull()
    expect(stored(shell.storageKey)['open']).toBe(true)
    ;(await shell.find('tab-timeline')).click()
    await eventually(() => expect(stored(shell.storageKey)['tab']).toBe('timeline'))
    ;(await shell.find('devtools-close')).click()
    await shell.find('devtools-toggle')
    expect(stored(shell.storageKey)['open']).toBe(false)
  })

  it('opens from remembered state, docks right, and resizes by dragging', async () => {
    const storageKey = `shell-remembered-${Date.now()}`
    localStorage.setItem(storageKey, JSON.stringify({ state: { open: true, dock: 'right', size: 333, tab: 'timeline' }, version: 1 }))
    const shell = await mount({ storageKey })
    const frame = await shell.find('devtools-frame')
    expect(frame.dataset['dock']).toBe('right')
    expect(frame.style.width).toBe('333px')
    expect((await shell.find('tab-timeline')).getAttribute('aria-selected')).toBe('true')
    ;(await shell.find('dock-bottom')).click()
    await eventually(() => expect(shell.query('devtools-frame')?.dataset['dock']).toBe('bottom'))
    const handle = await shell.find('devtools-resize')
    const y = handle.getBoundingClientRect().top
    handle.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerId: 7, clientY: y }))
    handle.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerId: 7, clientY: y - 50 }))
    handle.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, pointerId: 7, clientY: y - 50 }))
    await eventually(() => expect(shell.query('devtools-frame')?.style.height).toBe('383px'))
    expect(stored(storageKey)['size']).toBe(383)
    handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    await eventually(() => expect(shell.query('devtools-frame')?.style.height).toBe('363px'))
    expect(stored(storageKey)['dock']).toBe('bottom')
  })

  it('toggles with the keyboard shortcut and from code', async () => {
    const shell = await mount({ shortcut: 'ctrl+shift+k' })
    await shell.find('devtools-toggle')
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyK', ctrlKey: true, shiftKey: true }))
    await shell.find('devtools-frame')
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyK', ctrlKey: true }))
    expect(shell.query('devtools-frame')).not.toBeNull()
    closeDevtools(shell.storageKey)
    await shell.find('devtools-toggle')
    openDevtools(shell.storageKey)
    await shell.find('devtools-frame')
    toggleDevtools(shell.storageKey)
    await shell.find('devtools-toggle')
  })

  it('isolates styles both ways: page CSS does not reach the panel, panel CSS does not reach the page', async () => {
    const pageStyle = document.createElement('style')
    pageStyle.textContent =
      'body { color: rgb(255, 0, 0); font-family: serif; } button { background: rgb(0, 255, 0) !important; } .tl-tab { color: rgb(0, 0, 255) !important; }'
    document.head.append(pageStyle)
    const outside = document.createElement('div')
    outside.className = 'tl-root'
    outside.innerHTML = '<button class="tl-button">x</button>'
    document.body.append(outside)
    cleanups.push(() => {
      pageStyle.remove()
      outside.remove()
    })
    const shell = await mount({ initialIsOpen: true, storageKey: `isolation-${Date.now()}` })
    const tab = await shell.find('tab-projection')
    const panel = await shell.find('threadlens-panel')
    expect(getComputedStyle(panel).color).not.toBe('rgb(255, 0, 0)')
    expect(getComputedStyle(panel).fontFamily).not.toBe('serif')
    expect(getComputedStyle(tab).backgroundColor).not.toBe('rgb(0, 255, 0)')
    expect(getComputedStyle(tab).color).not.toBe('rgb(0, 0, 255)')
    // The page's own `.tl-root` and `.tl-button` keep the page's styles, not the panel's.
    expect(getComputedStyle(outside).backgroundColor).toBe('rgba(0, 0, 0, 0)')
    expect(getComputedStyle(outside.querySelector('button') as HTMLElement).borderRadius).toBe('0px')
  })

  it('publishes the room a docked panel takes as CSS variables, and clears them when it floats or closes', async () => {
    const root = document.documentElement.style
    const storageKey = `shell-reserved-${Date.now()}`
    localStorage.setItem(storageKey, JSON.stringify({ state: { open: true, dock: 'bottom', size: 300 }, version: 2 }))
    const shell = await mount({ storageKey })
    await shell.find('devtools-frame')
    await eventually(() => expect(root.getPropertyValue('--threadlens-devtools-bottom')).toBe('300px'))
    expect(root.getPropertyValue('--threadlens-devtools-right')).toBe('')
    ;(await shell.find('dock-right')).click()
    await eventually(() => expect(root.getPropertyValue('--threadlens-devtools-right')).toBe('300px'))
    expect(root.getPropertyValue('--threadlens-devtools-bottom')).toBe('')
    ;(await shell.find('dock-floating')).click()
    await eventually(() => expect(root.getPropertyValue('--threadlens-devtools-right')).toBe(''))
    ;(await shell.find('dock-bottom')).click()
    await eventually(() => expect(root.getPropertyValue('--threadlens-devtools-bottom')).toBe('300px'))
    closeDevtools(storageKey)
    await eventually(() => expect(root.getPropertyValue('--threadlens-devtools-bottom')).toBe(''))
  })

  it('shows a right dock at the bottom on a window too narrow for a column beside the page, and on the right again when wider', async () => {
    const storageKey = `shell-narrow-right-${Date.now()}`
    localStorage.setItem(storageKey, JSON.stringify({ state: { open: true, dock: 'right', size: 300 }, version: 2 }))
    await page.viewport(414, 800)
    const shell = await mount({ storageKey })
    const frame = await shell.find('devtools-frame')
    await eventually(() => expect(frame.dataset['edge']).toBe('bottom'))
    expect(frame.dataset['dock']).toBe('right')
    expect(frame.style.height).toBe('300px')
    expect(document.documentElement.style.getPropertyValue('--threadlens-devtools-bottom')).toBe('300px')
    // The right button says why, in its name and tooltip, and a click says so in the header.
    const right = await shell.find('dock-right')
    expect(right.title).toContain('needs a window at least 640 px wide (this one is 414 px)')
    expect(right.getAttribute('aria-label')).toBe(right.title)
    expect((await shell.find('dock-note')).textContent).toBe('')
    right.click()
    await eventually(() => expect(shell.query('dock-note')?.textContent).toContain('the panel stays at the bottom'))
    expect(shell.query('devtools-frame')?.dataset['edge']).toBe('bottom')
    // A phone's bottom dock takes at most half the window's height (a wider window, up to 90 %).
    const tallKey = `${storageKey}-tall`
    localStorage.setItem(tallKey, JSON.stringify({ state: { open: true, dock: 'bottom', size: 700 }, version: 2 }))
    const tall = await mount({ storageKey: tallKey })
    await eventually(() => expect(tall.query('devtools-frame')?.style.height).toBe('400px'))
    await page.viewport(1024, 768)
    await eventually(() => expect(tall.query('devtools-frame')?.style.height).toBe('691px'))
    await eventually(() => expect(shell.query('devtools-frame')?.dataset['edge']).toBe('right'))
    expect(shell.query('devtools-frame')?.style.width).toBe('300px')
    expect(stored(storageKey)['dock']).toBe('right')
  })

  it("with the app's own toggle: no floating button, first-visit dock applied once, focus back on the app's button", async () => {
    const storageKey = `shell-own-toggle-${Date.now()}`
    const appButton = document.createElement('button')
    appButton.textContent = 'Devtools'
    document.body.append(appButton)
    cleanups.push(() => appButton.remove())
    const shell = await mount({ storageKey, showToggle: false, initialIsOpen: true, initialDock: 'floating', toggleRef: { current: appButton } })
    const frame = await shell.find('devtools-frame')
    expect(frame.dataset['dock']).toBe('floating')
    expect(shell.query('devtools-toggle')).toBeNull()
    await eventually(() => expect(stored(storageKey)['dock']).toBe('floating'))
    // Opened on load, so nothing had focus before: closing focuses the app's button.
    ;(await shell.find('devtools-close')).click()
    await eventually(() => expect(document.activeElement).toBe(appButton))
    expect(shell.query('devtools-toggle')).toBeNull()
    // A later visit keeps what the user chose, whatever the first-visit props say.
    ;(await mount({ storageKey, showToggle: false, initialIsOpen: true, initialDock: 'right' })).query('devtools-frame')
    expect(stored(storageKey)['open']).toBe(false)
    expect(stored(storageKey)['dock']).toBe('floating')
  })
})
