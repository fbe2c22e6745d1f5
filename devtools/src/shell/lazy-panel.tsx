import { ThreadlensErrorBoundary, ThreadlensErrorFallback, useOptionalThreadlensClient } from '@threadlens/react'
import { useEffect, useState, type ComponentType } from 'react'
import { DEFAULT_STORAGE_KEY, FIRST_READ_WAIT_MS } from '../constants'
import { devtoolsUiStore } from '../view-models/ui-state'
import type { PanelBodyProps } from '../panel/panel'
import { loadTab } from '../panel/tab-loaders'
import { discardNewestEntries, prefetchNewestEntries } from './newest-entries-prefetch'

type PanelComponent = ComponentType<PanelBodyProps>

// The panel body is its own chunk: an app pays for it only when the panel first opens. Each tab is
// one more (see `tab-loaders`); the one the panel opens on downloads beside the body, not after it.
let loading: Promise<PanelComponent> | undefined
let loaded: PanelComponent | undefined

function loadPanel(): Promise<PanelComponent> {
  loading ??= import('../panel/panel').then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      // A failed download is tried again on the next open.
      loading = undefined
      throw error
    },
  )
  return loading
}

/**
 * The first read, or `FIRST_READ_WAIT_MS`, whichever ends first. Rendered before its data, the
 * panel would lay out and paint an empty frame, then render again, and that work would hold up the
 * read's own steps on the main thread; a slow read must not keep the panel's controls away long.
 */
function firstReadOrTimeout(firstRead: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FIRST_READ_WAIT_MS)
  })
  return Promise.race([firstRead, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Shows the panel once its chunk is in (on a cold open, and its first read: see
 * `firstReadOrTimeout`). Not `lazy` + `<Suspense>`: React holds a Suspense boundary's content back
 * until ~300 ms after its fallback appeared, more than a cold open should take in all.
 */
export function LazyPanel(props: PanelBodyProps) {
  const [Panel, setPanel] = useState<PanelComponent | undefined>(() => loaded)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const contextClient = useOptionalThreadlensClient()
  useEffect(() => {
    if (Panel !== undefined) return undefined
    let current = true
    let handedOver = false
    // The thread's newest entries are read while the chunk downloads.
    const firstRead = prefetchNewestEntries(props, contextClient)
    const ui = props.ui ?? devtoolsUiStore(props.storageKey ?? DEFAULT_STORAGE_KEY)
    // A tab that fails to load says so in the panel, which offers to try again.
    const firstTab = loadTab(ui.getState().tab).catch(() => undefined)
    const ready = Promise.all([loadPanel(), firstTab]).then(async ([component]) => {
      if (firstRead !== undefined) await firstReadOrTimeout(firstRead)
      return component
    })
    ready.then(
      (component) => {
        if (!current) return
        handedOver = true
        setPanel(() => component)
      },
      (error: unknown) => {
        if (current) setFailure(error instanceof Error ? error.message : String(error))
      },
    )
    return () => {
      current = false
      // Closed before the panel took the read: the next open reads afresh.
      if (!handedOver) discardNewestEntries()
    }
    // Once per open: the props the panel opened with.
  }, [Panel])
  if (Panel !== undefined) {
    // The panel is a guest in the app: if it throws, it says so in its own frame (with the dock
    // controls, so it can still be closed), and the app keeps running.
    return (
      <ThreadlensErrorBoundary
        label="the threadlens devtools panel"
        fallback={(failure) => (
          <div className="tl-panel-failure" data-testid="panel-failure">
            {props.controls}
            <ThreadlensErrorFallback {...failure} className="tl-failure" />
          </div>
        )}
      >
        <Panel {...props} />
      </ThreadlensErrorBoundary>
    )
  }
  if (failure !== undefined) {
    return (
      <p className="tl-loading" role="alert" data-testid="panel-load-error">
        [threadlens] the devtools panel could not load ({failure}); close and open it to try again.
      </p>
    )
  }
  const threadId = props.threadId ?? props.session?.getSnapshot().threadId
  // Set in the panel's own fonts (see `.tl-loading` in the shell's styles).
  return (
    <div className="tl-loading" data-testid="panel-loading">
      loading threadlens devtools…{threadId === undefined || threadId === '' ? null : <span className="tl-loading-thread"> thread {threadId}</span>}
    </div>
  )
}
