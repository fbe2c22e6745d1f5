import { presets, withPolicy, type ContextPolicy, type PendingMessage } from '@threadlens/core'
import { createSessionSource } from '@threadlens/client'
import { ThreadlensErrorBoundary, ThreadlensProvider, useOptionalThreadlensClient, useSession } from '@threadlens/react'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import { defaultPolicy, DEFAULT_STORAGE_KEY } from '../constants'
import { devtoolsUiStore, type DevtoolsUiStore } from '../view-models/ui-state'
import { PanelContext, type PanelContextValue } from './panel-context'
import { LastCallCard } from './last-call-card'
import { PanelHeader } from './panel-header'
import { PanelProjectionSource } from './panel-projection'
import type { DevtoolsPanelProps, PolicyChoice } from './panel-props'
import { meterCss } from '../meter/meter-styles'
import { insightCss } from './insight-styles'
import { panelCss } from './panel-styles'
import { TabContent } from './tab-content'
import { useRecallIndex } from './use-recall-index'

export interface PanelBodyProps extends DevtoolsPanelProps {
  /** UI state store; default: the one for `storageKey`. */
  readonly ui?: DevtoolsUiStore
  /** Dock and close buttons of the floating shell, shown in the header. */
  readonly controls?: ReactNode
}

// A session that never changes, so `useSession` can always be called.
const noSession = createSessionSource({ status: 'idle', threadId: '' })

/** The panel body: lazy-loaded by the shell and by `<ThreadlensDevtoolsPanel>`. */
export default function Panel(props: PanelBodyProps) {
  const contextClient = useOptionalThreadlensClient()
  const client = props.client ?? contextClient
  return (
    <>
      <style>{panelCss}</style>
      <style>{insightCss}</style>
      <style>{meterCss}</style>
      <div className="tl-root" data-testid="threadlens-panel">
        {client === undefined ? (
          <p className="tl-error" role="alert" style={{ padding: 10 }}>
            [threadlens] the devtools need a client: pass client={'{createThreadlensClient({ threads, memory })}'} or render them inside
            {' <ThreadlensProvider>'}.
          </p>
        ) : (
          <ThreadlensProvider client={client}>
            <PanelInner {...props} />
          </ThreadlensProvider>
        )}
      </div>
    </>
  )
}

function builtInChoices(base: ContextPolicy): PolicyChoice[] {
  // Presets keep the app's system prompt and memory spaces, so the comparison is fair.
  const keep = {
    ...(base.systemPrompt === undefined ? {} : { systemPrompt: base.systemPrompt }),
    memorySpaces: [...base.memorySpaces],
  }
  return [
    { id: 'preset:short', label: 'preset: short context', policy: presets.shortContext(keep) },
    { id: 'preset:long', label: 'preset: long context', policy: presets.longContext(keep) },
    { id: 'preset:tool-focused', label: 'preset: tool-focused', policy: presets.toolFocused(keep) },
    recallVariant(base),
  ]
}

/** The app's policy with recall turned the other way: on (with its defaults) when it has none, else off. */
export function recallVariant(base: ContextPolicy): PolicyChoice {
  return base.recall === undefined
    ? { id: 'app:recall', label: 'app policy with recall', policy: withPolicy(base, { recall: {} }) }
    : { id: 'app:no-recall', label: 'app policy without recall', policy: withPolicy(base, { recall: undefined }) }
}

function PanelInner(props: PanelBodyProps) {
  // Only what the panel needs: a streaming reply must not re-render every tab.
  const session = useSession(
    props.session ?? noSession,
    useShallow((snapshot) => ({
      threadId: snapshot.threadId,
      policy: snapshot.policy,
      pendingMessage: snapshot.pendingMessage,
      tools: snapshot.tools,
      memory: snapshot.memory,
      lastProjection: snapshot.lastProjection,
    })),
  )
  const ui = props.ui ?? devtoolsUiStore(props.storageKey ?? DEFAULT_STORAGE_KEY)
  const threadId = props.threadId ?? (session.threadId === '' ? undefined : session.threadId)
  const fallback = useMemo(defaultPolicy, [])
  const basePolicy = props.policy ?? session.policy ?? fallback
  const [lab, setLabState] = useState<{ choice: string; policy: ContextPolicy | undefined }>({ choice: 'app', policy: undefined })
  const [selectedSeq, selectSeq] = useState<number | undefined>(undefined)
  const pendingMessage = session.pendingMessage
  // A real session knows its tools and the memory it sent; the app's props win (e.g. for the next call).
  const tools = props.tools ?? (session.tools.length === 0 ? undefined : session.tools)
  const memory = props.memory ?? session.memory
  // One recall index per thread, so a policy with recall (the app's or one tried in the lab) is projected as the app does.
  const recall = useRecallIndex(threadId, props.recall, [basePolicy, lab.policy], useOptionalThreadlensClient()?.threads)
  const projectOptions = useMemo(() => {
    const pending: PendingMessage[] | undefined = pendingMessage === undefined ? undefined : [{ role: 'user', content: pendingMessage }]
    return {
      ...(pending === undefined ? {} : { pending }),
      ...(tools === undefined ? {} : { tools }),
      ...(memory === undefined ? {} : { memory }),
      ...(recall === undefined ? {} : { recall }),
    }
  }, [pendingMessage, tools, memory, recall])
  const choices = useMemo(() => [...builtInChoices(basePolicy), ...(props.policies ?? [])], [basePolicy, props.policies])
  const tab = useStore(ui, (state) => state.tab)
  const idBase = useId()

  const value = useMemo(
    (): PanelContextValue | undefined =>
      threadId === undefined
        ? undefined
        : {
            threadId,
            basePolicy,
            policy: lab.policy ?? basePolicy,
            labPolicy: lab.policy,
            labChoice: lab.choice,
            setLab: (choice, policy) => setLabState({ choice, policy }),
            choices,
            projectOptions,
            session: props.session,
            sessionProjection: session.lastProjection,
            agentId: props.agentId,
            sync: props.sync,
            ui,
            selectedSeq,
            selectSeq,
          },
    [threadId, basePolicy, lab, choices, projectOptions, props.session, session.lastProjection, props.agentId, props.sync, ui, selectedSeq],
  )
  if (value === undefined) {
    return (
      <p className="tl-muted" style={{ padding: 10 }} data-testid="no-thread">
        No thread to inspect: pass threadId, or a session that has one.
      </p>
    )
  }
  return (
    <PanelContext.Provider value={value}>
      <PanelProjectionSource key={value.threadId}>
        <PanelHeader controls={props.controls} idBase={idBase} />
        <ThreadlensErrorBoundary label="the last call summary" className="tl-failure" resetKeys={[value.threadId]}>
          <LastCallCard />
        </ThreadlensErrorBoundary>
        <TabContent tab={tab} idBase={idBase} />
      </PanelProjectionSource>
    </PanelContext.Provider>
  )
}
