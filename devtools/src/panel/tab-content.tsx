import type { TabId } from '../constants'
import { tabElementId, tabPanelId } from './panel-header'
import { CallsTab } from '../tabs/calls-tab'
import { MemoryTab } from '../tabs/memory-tab'
import { PolicyLabTab } from '../tabs/policy-lab-tab'
import { ProjectionTab } from '../tabs/projection-tab'
import { StorageTab } from '../tabs/storage-tab'
import { TimelineTab } from '../tabs/timeline-tab'
import { TokensTab } from '../tabs/tokens-tab'
import { ViewsTab } from '../tabs/views-tab'

/** Only the active tab is mounted. Tabs with their own virtualized scrolling fill the body. */
export function TabContent({ tab, idBase }: { readonly tab: TabId; readonly idBase: string }) {
  const fill = tab === 'timeline' || tab === 'views' || tab === 'calls'
  return (
    <div className={`tl-body${fill ? ' tl-fill' : ''}`} role="tabpanel" id={tabPanelId(idBase, tab)} aria-labelledby={tabElementId(idBase, tab)} data-testid={`panel-${tab}`}>
      {tab === 'projection' ? <ProjectionTab /> : null}
      {tab === 'tokens' ? <TokensTab /> : null}
      {tab === 'timeline' ? <TimelineTab /> : null}
      {tab === 'views' ? <ViewsTab /> : null}
      {tab === 'lab' ? <PolicyLabTab /> : null}
      {tab === 'calls' ? <CallsTab /> : null}
      {tab === 'memory' ? <MemoryTab /> : null}
      {tab === 'storage' ? <StorageTab /> : null}
    </div>
  )
}
