import { type KeyboardEvent, type ReactNode } from 'react'
import { useStore } from 'zustand'
import { tabIds, tabLabels, type TabId } from '../constants'
import { formatNumber } from '../model/meter-parts'
import { MeterView, meterAttributes, DEFAULT_METER_LABEL } from '../meter/meter-view'
import { usePanel } from './panel-context'
import { SessionBar } from './session-bar'
import { usePanelProjectionFirst } from './panel-projection'
import { useThreadTitle } from './use-thread-title'

/** Title, policy menu, compact meter, shell controls, then the tab bar. */
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
        <h2 className="tl-title">threadlens</h2>
        <span className="tl-thread-title" title={`thread ${panel.threadId}`} data-testid="panel-thread-title">
          {title === undefined ? <span className="tl-mono">{panel.threadId}</span> : title.trim() === '' ? <span className="tl-muted">untitled thread</span> : title}
        </span>
        <label className="tl-row">
          <span className="tl-muted">policy</span>
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
          <MeterView meta={projection.result.meta} variant="compact" colorScheme="dark" label={DEFAULT_METER_LABEL} attributes={{ 'data-testid': 'meter-compact', ...meterAttributes(projection.result.meta) }} />
        )}
        {partial && projection.thread !== undefined ? (
          <span className="tl-badge" data-testid="panel-partial" title="Shown from the thread's newest entries; the whole thread is loading">
            newest {formatNumber(projection.thread.entries.length)} of {formatNumber(projection.thread.nextSeq)} entries · loading
          </span>
        ) : null}
        {controls}
      </div>
      {panel.session === undefined ? null : <SessionBar session={panel.session} />}
      <PanelTabs idBase={idBase} />
    </>
  )
}

/** The tab bar, as the WAI-ARIA tabs pattern has it: one tab stop; arrows, Home and End move between tabs and select them. */
function PanelTabs({ idBase }: { readonly idBase: string }) {
  const panel = usePanel()
  const tab = useStore(panel.ui, (state) => state.tab)
  const setTab = useStore(panel.ui, (state) => state.setTab)
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
    <div className="tl-tabs" role="tablist" aria-label="threadlens devtools" onKeyDown={onTabKey}>
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
          {tabLabels[id]}
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
