import { useOptionalThreadlensClient } from '@threadlens/react'
import { useEffect, useState, type ComponentType } from 'react'
import type { PanelBodyProps } from '../panel/panel'
import { discardNewestEntries, prefetchNewestEntries } from './newest-entries-prefetch'

type PanelComponent = ComponentType<PanelBodyProps>

// The panel body is its own chunk: an app pays for it only when the panel first opens.
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
 * Shows the panel once its chunk is in. Not `lazy` + `<Suspense>`: React holds a Suspense
 * boundary's content back until ~300 ms after its fallback appeared, more than a cold open
 * should take in all.
 */
export function LazyPanel(props: PanelBodyProps) {
  const [Panel, setPanel] = useState<PanelComponent | undefined>(() => loaded)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const contextClient = useOptionalThreadlensClient()
  useEffect(() => {
    if (Panel !== undefined) return undefined
    let current = true
    // The thread's newest entries are read while the chunk downloads.
    prefetchNewestEntries(props, contextClient)
    loadPanel().then(
      (component) => {
        if (current) setPanel(() => component)
      },
      (error: unknown) => {
        if (current) setFailure(error instanceof Error ? error.message : String(error))
      },
    )
    return () => {
      current = false
      // Closed before the panel took the read: the next open reads afresh.
      if (loaded === undefined) discardNewestEntries()
    }
    // Once per open: the props the panel opened with.
  }, [Panel])
  if (Panel !== undefined) return <Panel {...props} />
  if (failure !== undefined) {
    return (
      <p className="tl-loading" role="alert" data-testid="panel-load-error">
        [threadlens] the devtools panel could not load ({failure}); close and open it to try again.
      </p>
    )
  }
  return (
    <div className="tl-loading" data-testid="panel-loading">
      loading threadlens devtools…
    </div>
  )
}
