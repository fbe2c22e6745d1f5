import type { ReactNode } from 'react'
import { useStore } from 'zustand'
import { tabIds, tabLabels } from '../constants'
import { MeterBar } from '../tabs/meter-bar'
import { usePanel } from './panel-context'
import { SessionBar } from './session-bar'
import { usePanelProjection } from './use-panel-projection'

/** Title, policy menu, compact meter, shell controls, then the tab bar. */
export function PanelHeader({ controls }: { readonly controls: ReactNode }) {
  const panel = usePanel()
  const projection = usePanelProjection()
  const tab = useStore(panel.ui, (state) => state.tab)
  const setTab = useStore(panel.ui, (state) => state.setTab)
  const onPolicy = (id: string) => {
    if (id === 'app') return panel.setLab('app', undefined)
    const choice = panel.choices.find((item) => item.id === id)
    if (choice !== undefined) panel.setLab(choice.id, choice.policy)
  }
  const known = panel.labChoice === 'app' || panel.choices.some((choice) => choice.id === panel.labChoice)
  return (
    <>
      <div className="tl-header">
        <span className="tl-title">threadlens</span>
        <span className="tl-muted tl-mono" title="thread id">
          {panel.threadId}
        </span>
        <label className="tl-row">
          <span className="tl-muted">policy</span>
          <select className="tl-select" data-testid="policy-select" value={panel.labChoice} onChange={(event) => onPolicy(event.target.value)}>
            <option value="app">app policy{panel.basePolicy.name === undefined ? '' : ` (${panel.basePolicy.name})`}</option>
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
          <MeterBar meta={projection.result.meta} compact />
        )}
        {controls}
      </div>
      {panel.session === undefined ? null : <SessionBar session={panel.session} />}
      <div className="tl-tabs" role="tablist" aria-label="threadlens devtools">
        {tabIds.map((id) => (
          <button key={id} type="button" role="tab" className="tl-tab" aria-selected={tab === id} data-testid={`tab-${id}`} onClick={() => setTab(id)}>
            {tabLabels[id]}
          </button>
        ))}
      </div>
    </>
  )
}
