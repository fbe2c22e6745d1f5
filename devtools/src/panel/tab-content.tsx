import { ThreadlensErrorBoundary } from '@threadlens/react'
import { useEffect, useRef, useState, type ComponentType } from 'react'
import { tabOf, type TabId } from './tab-registry'
import { usePanel } from './panel-context'
import { tabElementId, tabPanelId } from './panel-header'
import { loadedTab, loadTab, prefetchTabsAfterInteraction } from './tab-loaders'

interface Shown {
  readonly tab: TabId
  readonly Component: ComponentType
}

/**
 * Only the active tab is mounted. Tabs with their own virtualized scrolling fill the body. A tab
 * whose chunk is not in yet (selected before the prefetch got to it) is loaded then; meanwhile the
 * tab shown before stays, marked busy, rather than an empty body flashing in between. A tab that
 * could not load says so (selecting it again tries again). A tab that throws while rendering says
 * so in its place (details to copy, a retry): the rest of the panel and the app stay, and the
 * panel does not reopen on that tab.
 */
export function TabContent({ tab, idBase }: { readonly tab: TabId; readonly idBase: string }) {
  const panel = usePanel()
  const ready = loadedTab(tab)
  const last = useRef<Shown | undefined>(undefined)
  const [failure, setFailure] = useState<{ readonly tab: TabId; readonly message: string } | undefined>(undefined)
  const [, setLoadedCount] = useState(0)
  useEffect(prefetchTabsAfterInteraction, [])
  useEffect(() => {
    if (ready !== undefined) return undefined
    let current = true
    setFailure(undefined)
    loadTab(tab).then(
      () => {
        if (current) setLoadedCount((count) => count + 1)
      },
      (error: unknown) => {
        if (current) setFailure({ tab, message: error instanceof Error ? error.message : String(error) })
      },
    )
    return () => {
      current = false
    }
  }, [tab, ready])
  if (ready !== undefined) last.current = { tab, Component: ready }
  const waiting = ready === undefined && failure?.tab !== tab
  const shown = waiting ? last.current : { tab, Component: ready }
  const shownTab = shown?.tab ?? tab
  const fill = tabOf(shownTab).fill
  const Component = shown?.Component
  return (
    <div
      className={`tl-body${fill ? ' tl-fill' : ''}`}
      role="tabpanel"
      id={tabPanelId(idBase, shownTab)}
      aria-labelledby={tabElementId(idBase, shownTab)}
      aria-busy={waiting ? true : undefined}
      // A tab stop, as the WAI-ARIA tabs pattern has it: a tab that scrolls (a short dock on a phone) can be scrolled from the keyboard.
      tabIndex={0}
      data-testid={`panel-${shownTab}`}
    >
      {failure?.tab === tab ? (
        <p className="tl-error" role="alert" data-testid="tab-load-error">
          [threadlens] the {tabOf(tab).label} tab could not load ({failure.message}).
        </p>
      ) : Component === undefined ? null : (
        <ThreadlensErrorBoundary
          label={`the ${tabOf(shownTab).label} tab`}
          className="tl-failure"
          resetKeys={[shownTab, panel.threadId]}
          onError={() => panel.ui.getState().setTabFailed(shownTab)}
          onRetry={() => panel.ui.getState().setTabFailed(undefined)}
        >
          <Component />
        </ThreadlensErrorBoundary>
      )}
    </div>
  )
}
