import type { ComponentType } from 'react'

/** One tab of the panel: everything the header, the body and the loaders need to know about it. */
export interface TabDefinition {
  readonly id: string
  /** Its name in the tab strip. */
  readonly label: string
  /** Its chunk: each tab downloads on its own (see `tab-loaders`). */
  readonly load: () => Promise<ComponentType>
  /** It scrolls itself (a virtualized list): the panel body gives it the full height instead of scrolling. */
  readonly fill: boolean
}

/**
 * The panel's tabs, in the order of the tab strip. Adding a tab is adding it here: its id becomes a
 * `TabId` (remembered in the UI state, offered by `initialTab`), the header shows it, the body loads
 * and mounts it, and the prefetch fetches it.
 */
export const tabs = [
  {
    id: 'projection',
    label: 'Projection',
    fill: false,
    load: () => import('../tabs/projection/projection-tab').then((module) => module.ProjectionTab),
  },
  { id: 'tokens', label: 'Tokens', fill: false, load: () => import('../tabs/tokens/tokens-tab').then((module) => module.TokensTab) },
  { id: 'timeline', label: 'Timeline', fill: true, load: () => import('../tabs/timeline/timeline-tab').then((module) => module.TimelineTab) },
  { id: 'views', label: 'Views', fill: true, load: () => import('../tabs/views/views-tab').then((module) => module.ViewsTab) },
  { id: 'lab', label: 'Policy lab', fill: false, load: () => import('../tabs/lab/policy-lab-tab').then((module) => module.PolicyLabTab) },
  { id: 'calls', label: 'Calls', fill: true, load: () => import('../tabs/calls/calls-tab').then((module) => module.CallsTab) },
  { id: 'memory', label: 'Memory', fill: false, load: () => import('../tabs/memory/memory-tab').then((module) => module.MemoryTab) },
  { id: 'storage', label: 'Storage', fill: false, load: () => import('../tabs/storage/storage-tab').then((module) => module.StorageTab) },
] as const satisfies readonly TabDefinition[]

export type TabId = (typeof tabs)[number]['id']
export const tabIds: readonly [TabId, ...TabId[]] = tabs.map((tab) => tab.id) as [TabId, ...TabId[]]
export const DEFAULT_TAB: TabId = 'projection'

/** The registry's entry for `id`. */
export function tabOf(id: TabId): TabDefinition {
  return tabs.find((tab) => tab.id === id) as TabDefinition
}
