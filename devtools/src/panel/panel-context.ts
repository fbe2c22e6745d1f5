import type { ContextPolicy, ProjectionResult, SessionSource } from '@threadlens/core'
import type { ProjectOptions } from '@threadlens/client'
import { createContext, useContext } from 'react'
import type { DevtoolsUiStore } from '../view-models/ui-state'
import type { DevtoolsSyncSource, PolicyChoice } from './panel-props'

export interface PanelContextValue {
  readonly threadId: string
  /** The app's policy (what the next call really uses). */
  readonly basePolicy: ContextPolicy
  /** What the panel shows: the lab's preview policy, or the app's. */
  readonly policy: ContextPolicy
  /** Set while the Policy lab previews another policy; nothing is written. */
  readonly labPolicy: ContextPolicy | undefined
  readonly labChoice: string
  setLab(choice: string, policy: ContextPolicy | undefined): void
  readonly choices: readonly PolicyChoice[]
  readonly projectOptions: ProjectOptions
  readonly session: SessionSource | undefined
  readonly sessionProjection: ProjectionResult | undefined
  readonly agentId: string | undefined
  /** The app's sync status, when it gave one. */
  readonly sync: DevtoolsSyncSource | undefined
  readonly ui: DevtoolsUiStore
  /** The entry opened in the timeline's detail pane. */
  readonly selectedSeq: number | undefined
  selectSeq(seq: number | undefined): void
}

export const PanelContext = createContext<PanelContextValue | undefined>(undefined)

export function usePanel(): PanelContextValue {
  const value = useContext(PanelContext)
  if (value === undefined) throw new Error('[threadlens] devtools tabs render inside <ThreadlensDevtoolsPanel>')
  return value
}
