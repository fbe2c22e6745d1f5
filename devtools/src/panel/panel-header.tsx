import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { useStore } from 'zustand'
import { tabIds, tabOf, type TabId } from './tab-registry'
import { formatNumber } from '../view-models/meter-parts'
import { MeterView, meterAttributes, DEFAULT_METER_LABEL } from '../meter/meter-view'
import { usePanel } from './panel-context'
import { SessionBadge, SessionBar } from './session-bar'
import { usePanelProjectionFirst } from './panel-projection'
import { useThreadTitle } from './use-thread-title'

/**
 * Title, policy menu, compact meter, session status and shell controls on one row, then the request
 * in progress (only while there is one), then the tab bar. In a narrow panel the title, the thread's
 * name and the policy menu's label are left to screen readers and tooltips, so the row fits a phone.
 */
export function PanelHeader({ controls, idBase }: { readonly controls: ReactNode; readonly idBase: string }) {
  const panel = usePanel()
  const { snapshot: projection, partial } = usePanelProjectionFirst()
  const onPolicy = (id: string) => {
    if (id === 'app') return panel.setLab('app', undefined)
    const choice = panel.choices.find((item) => item.id === id)
    if (choice !== undefined) panel.setLab(choice.id, choice.policy)
  }
  const title = useThreadTitle(panel.threadId)
  const known = panel.labChoice === 'app' || panel.choices.some((choice) => choice.id === panel.labChoice)
  return (
    <>
      <div className="tl-header">
        <h2 className="tl-title tl-wide-only">threadlens</h2>
        <span className="tl-thread-title tl-wide-only" title={`thread ${panel.threadId}`} data-testid="panel-thread-title">
          {title === undefined ? (
            <span className="tl-mono">{panel.threadId}</span>
          ) : title.trim() === '' ? (
            <span className="tl-muted">untitled thread</span>
          ) : (
            title
          )}
        </span>
        <label className="tl-row tl-policy" title="The policy the panel projects with: the app's, or one to preview">
          <span className="tl-muted tl-wide-only">policy</span>
          <select className="tl-select" data-testid="policy-select" value={panel.labChoice} onChange={(event) => onPolicy(event.target.value)}>
            {/* The app's policy under the name the app gives it. */}
            <option value="app">{panel.basePolicy.name === undefined ? 'app policy' : `app: ${panel.basePolicy.name}`}</option>
            {panel.choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
            {known ? null : <option value={panel.labChoice}>lab: {panel.labChoice}</option>}
          </select>
        </label>
        {panel.labPolicy === undefined ? null : (
          <span className="tl-badge tl-warn" data-testid="preview-badge" title="Previewing a policy: nothing is written to the thread">
            preview
          </span>
        )}
        <span className="tl-grow" />
        {projection.result === undefined ? (
          <span className="tl-muted" data-testid="projection-status">
            {projection.status === 'error' ? 'projection failed' : 'loading…'}
          </span>
        ) : (
          <MeterView
            meta={projection.result.meta}
            variant="compact"
            colorScheme="dark"
            label={DEFAULT_METER_LABEL}
            attributes={{ 'data-testid': 'meter-compact', ...meterAttributes(projection.result.meta) }}
          />
        )}
        {partial && projection.thread !== undefined ? (
          <span className="tl-badge" data-testid="panel-partial" title="Shown from the thread's newest entries; the whole thread is loading">
            newest {formatNumber(projection.thread.entries.length)} of {formatNumber(projection.thread.nextSeq)} entries · loading
          </span>
        ) : null}
        {panel.session === undefined ? null : <SessionBadge session={panel.session} />}
        {controls}
      </div>
      {panel.session === undefined ? null : <SessionBar session={panel.session} />}
      <PanelTabs idBase={idBase} />
    </>
  )
}

/**
 * The tab bar, as the WAI-ARIA tabs pattern has it: one tab stop; arrows, Home and End move between
 * tabs and select them. One row at every width: a narrow panel scrolls it sideways, keeping the
 * selected tab in view (by scrolling the bar itself, never the page).
 */
function PanelTabs({ idBase }: { readonly idBase: string }) {
  const panel = usePanel()
  const tab = useStore(panel.ui, (state) => state.tab)
  const setTab = useStore(panel.ui, (state) => state.setTab)
  const bar = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const list = bar.current
    const selected = list?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (list == null || selected == null) return
    const start = selected.offsetLeft
    const end = start + selected.offsetWidth
    if (start < list.scrollLeft) list.scrollLeft = start
    else if (end > list.scrollLeft + list.clientWidth) list.scrollLeft = end - list.clientWidth
  }, [tab])
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabIds.indexOf(tab)
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabIds.length - 1 }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const id = tabIds[(next + tabIds.length) % tabIds.length] as TabId
    setTab(id)
    const root = event.currentTarget.getRootNode() as Document | ShadowRoot
    root.getElementById(tabElementId(idBase, id))?.focus()
  }
  return (
    <div ref={bar} className="tl-tabs" role="tablist" aria-label="threadlens devtools" onKeyDown={onTabKey}>
      {tabIds.map((id) => (
        <button
          key={id}
          id={tabElementId(idBase, id)}
          type="button"
          role="tab"
          className="tl-tab"
          aria-selected={tab === id}
          aria-controls={tabPanelId(idBase, id)}
          tabIndex={tab === id ? 0 : -1}
          data-testid={`tab-${id}`}
          onClick={() => setTab(id)}
        >
          {tabOf(id).label}
        </button>
      ))}
    </div>
  )
}

/** Element ids of a tab and its panel (unique per panel instance). */
export function tabElementId(base: string, tab: TabId): string {
  return `${base}-tab-${tab}`
}

export function tabPanelId(base: string, tab: TabId): string {
  return `${base}-panel-${tab}`
}
