import { createTokenCounter, type EntryInput } from '@threadlens/core'
import { createThreadlensClient } from '@threadlens/client'
import { createMemoryBackedStores, type ThreadStore } from '@threadlens/store'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { testPolicy } from './panel-harness'
import { ThreadlensDevtools } from '../shell/devtools'

/** What a cold open did: each `threads.load`, and what the panel showed when it first appeared. */
export interface ColdOpen {
  readonly loads: { readonly windowed: boolean; readonly panelShown: boolean }[]
  /** Whether the compact meter was there when the panel body first appeared, `undefined` before. */
  readonly meterWithFirstPanel: () => boolean | undefined
  /** Whether the panel body ever put a loading state in the DOM (even one replaced before a paint). */
  readonly loadingRendered: () => boolean
  readonly shadow: ShadowRoot
  /** Lets a held windowed read go on. */
  release(): void
  unmount(): void
}

/**
 * Opens the floating devtools on a 200-entry thread, from a page that has not loaded the panel's
 * chunk yet (only the first open in a test file is cold). With `holdWindowedLoad` the windowed
 * read waits for `release()`.
 */
export async function coldOpen({ holdWindowedLoad = false } = {}): Promise<ColdOpen> {
  await createTokenCounter('heuristic')
  const stores = createMemoryBackedStores()
  const { id } = await stores.threads.create()
  const inputs: EntryInput[] = Array.from({ length: 200 }, (_, turn) => ({
    kind: 'message',
    payload: { role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn} ${'word '.repeat(40)}` },
  }))
  await stores.threads.appendMany(id, inputs)
  const loads: { windowed: boolean; panelShown: boolean }[] = []
  let shadow: ShadowRoot | undefined
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const threads = new Proxy(stores.threads, {
    get(target, key, receiver) {
      if (key !== 'load') return Reflect.get(target, key, receiver) as unknown
      const load: ThreadStore['load'] = async (threadId, options) => {
        const windowed = options?.window !== undefined
        loads.push({ windowed, panelShown: shadow?.querySelector('[data-testid="threadlens-panel"]') != null })
        if (windowed && holdWindowedLoad) await released
        return target.load(threadId, options)
      }
      return load
    },
  })
  const client = createThreadlensClient({ threads })
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  flushSync(() =>
    root.render(
      <ThreadlensDevtools
        client={client}
        threadId={id}
        policy={testPolicy({ maxInputTokens: 1200, reserveOutputTokens: 100 })}
        storageKey={`cold-open-${Date.now()}`}
      />,
    ),
  )
  shadow = (container.querySelector('[data-testid="threadlens-devtools"]') as HTMLElement).shadowRoot as ShadowRoot
  const root0 = shadow
  let meterWithFirstPanel: boolean | undefined
  let loadingRendered = false
  const loadingStates = '[data-testid="projection-status"], [data-testid="projection-loading"]'
  const isLoadingState = (node: Node) => node instanceof Element && (node.matches(loadingStates) || node.querySelector(loadingStates) !== null)
  const observer = new MutationObserver((records) => {
    // A loading state replaced within the same task still shows in the records, as removed.
    for (const record of records) if ([...record.addedNodes, ...record.removedNodes].some(isLoadingState)) loadingRendered = true
    if (meterWithFirstPanel !== undefined || root0.querySelector('[data-testid="threadlens-panel"]') === null) return
    meterWithFirstPanel = root0.querySelector('[data-testid="meter-compact"]') !== null
  })
  observer.observe(root0, { childList: true, subtree: true })
  ;(root0.querySelector('[data-testid="devtools-toggle"]') as HTMLElement).click()
  return {
    loads,
    meterWithFirstPanel: () => meterWithFirstPanel,
    loadingRendered: () => loadingRendered,
    shadow: root0,
    release,
    unmount: () => {
      observer.disconnect()
      root.unmount()
      container.remove()
    },
  }
}
