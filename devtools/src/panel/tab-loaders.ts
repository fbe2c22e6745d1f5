import type { ComponentType } from 'react'
import { tabIds, tabOf, type TabId } from './tab-registry'

// Each tab is a chunk of its own: the panel's first view downloads the code of the tab it opens on
// (the shell asks for it beside the panel body), the others come when first selected, or before:
// see `prefetchTabsAfterInteraction`.

type TabComponent = ComponentType

const loaded = new Map<TabId, TabComponent>()
const loading = new Map<TabId, Promise<TabComponent>>()

/** The tab's component once its chunk is in, else `undefined`. */
export function loadedTab(tab: TabId): TabComponent | undefined {
  return loaded.get(tab)
}

/** Loads the tab's chunk (once; a failed download is tried again on the next call). */
export function loadTab(tab: TabId): Promise<TabComponent> {
  let promise = loading.get(tab)
  if (promise === undefined) {
    promise = tabOf(tab)
      .load()
      .then(
        (component) => {
          loaded.set(tab, component)
          return component
        },
        (error: unknown) => {
          loading.delete(tab)
          throw error
        },
      )
    loading.set(tab, promise)
  }
  return promise
}

/** The longest a tab's prefetch waits for a fully idle period. */
const IDLE_WAIT_MS = 10_000

const interactions = ['pointerdown', 'keydown', 'touchstart'] as const
let interacted = false
let listening = false
let prefetchWanted = false

/**
 * Notes the user's first press, key or tap on the page (not focus or scrolling: a page can do those
 * itself). The shell calls it when it mounts, so a panel body that loads later knows whether the
 * user had already interacted (`navigator.userActivation` cannot tell: Chromium reports activation
 * on pages nobody has touched yet).
 */
export function listenForFirstInteraction(): void {
  if (listening || interacted || globalThis.window === undefined) return
  listening = true
  const onInteraction = () => {
    for (const type of interactions) globalThis.removeEventListener(type, onInteraction, true)
    interacted = true
    if (prefetchWanted) prefetchWhenIdle()
  }
  for (const type of interactions) globalThis.addEventListener(type, onInteraction, { capture: true, passive: true })
}

/**
 * Downloads every tab not loaded yet, one per idle period, once the user has interacted with the
 * page (at once if they already have), so that a tab is in before it is selected, by a click or
 * an arrow key. Not before: a page that opens with the panel showing should not download tabs
 * nobody has asked for yet. Runs once per page.
 */
export function prefetchTabsAfterInteraction(): void {
  if (prefetchWanted) return
  prefetchWanted = true
  if (interacted) prefetchWhenIdle()
  else listenForFirstInteraction()
}

function prefetchWhenIdle(): void {
  const next = tabIds.find((tab) => !loaded.has(tab))
  if (next === undefined) return
  whenIdle(() => {
    loadTab(next).then(prefetchWhenIdle, () => undefined)
  })
}

/**
 * Runs `callback` in an idle period with no frame due soon (`timeRemaining()` near its 50 ms
 * maximum): a short gap between two busy frames (the panel opening, a thread loading, a reply
 * streaming) is left to them. Bounded: after 10 s of such gaps only, it runs in the next one.
 */
function whenIdle(callback: () => void, until = Date.now() + IDLE_WAIT_MS): void {
  if (typeof globalThis.requestIdleCallback !== 'function') {
    setTimeout(callback, 200)
    return
  }
  globalThis.requestIdleCallback(
    (deadline) => (deadline.timeRemaining() >= 40 || deadline.didTimeout || Date.now() >= until ? callback() : whenIdle(callback, until)),
    { timeout: Math.max(1, until - Date.now()) },
  )
}
