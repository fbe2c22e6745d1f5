import type { ContextPolicy } from '@threadlens/core'
import { useProjection, type ProjectionSnapshot } from '@threadlens/react'
import { usePanel } from './panel-context'

/** The projection the panel shows (the lab's preview policy, or the app's), or under `policy`. */
export function usePanelProjection(policy?: ContextPolicy): ProjectionSnapshot {
  const panel = usePanel()
  return useProjection(panel.threadId, policy ?? panel.policy, panel.projectOptions)
}
