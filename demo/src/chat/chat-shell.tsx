import { useMemory } from '@threadlens/react'
import type { ThreadlensStores } from '@threadlens/store'
import { useCallback, useMemo, useState } from 'react'
import { ActiveChat } from './active-chat'
import { ChatSidebar } from './chat-sidebar'
import { DismissibleLine } from './dismissible-line'
import { ASSISTANT_MEMORY_ID, scriptedSpeed } from './chat-config'
import { modelLabel, offlineSettings, type ModelSettings } from './model/model-settings'
import { SettingsPanel } from './settings/settings-panel'
import { SkipLinks } from './skip-links'
import { titleOf, type ThreadListSnapshot } from './threads/thread-list'
import { useChatThreads } from './threads/use-chat-threads'
import { loadChatAgent, useChatAgent } from './session/load-chat-agent'
import { demoToolSchemas } from './tools/demo-tool-schemas'
import { DemoSyncContext, useDemoSync } from './sync/use-demo-sync'
import { useChatLayout } from './use-chat-layout'
import { usePolicyChoices } from './policy/use-policy-choices'
import { usePolicyId } from './policy/use-policy-id'

/** Layout and app-wide state: threads, the model, the policy, memory; the open chat does the rest. */
export function ChatShell({ stores }: { readonly stores: ThreadlensStores }) {
  const speed = useMemo(() => scriptedSpeed(), [])
  const [settings, setSettings] = useState<ModelSettings>(offlineSettings)
  // The session, the model clients and the tools load after the first paint: the first screen does not need them.
  const agent = useChatAgent()
  const setup = useMemo(() => agent?.modelSetup(settings, speed), [agent, settings, speed])
  const configuredModel = settings.provider === 'offline' ? undefined : settings.model
  const [policyId, setPolicyId] = usePolicyId()
  const { options, choices, choice } = usePolicyChoices(configuredModel, policyId)

  const tools = useMemo(() => agent?.demoTools(stores.memory, ASSISTANT_MEMORY_ID), [agent, stores])
  const memory = useMemory(ASSISTANT_MEMORY_ID, (snapshot) => snapshot.memory)
  const readMemory = useCallback(() => stores.memory.get(ASSISTANT_MEMORY_ID), [stores])

  const sync = useDemoSync(stores.threads)
  const [layout, closeSidebar, closeSettings] = useChatLayout()
  const [problem, setProblem, attempt] = useProblem()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const { actions, list, activeId, record, openThread, createThread } = useChatThreads(stores, attempt, closeSidebar)

  return (
    <DemoSyncContext.Provider value={sync}>
      <div className="chat-app" data-sidebar-open={layout.sidebarOpen}>
        <SkipLinks />
        {/* Repeated on purpose: props one a line, like demo/src/chat/settings/settings-panel.tsx and demo/src/lab/lab-app.tsx (other components, other props). */}
        <ChatSidebar
          list={list}
          activeId={activeId}
          memory={memory}
          actions={actions}
          onOpen={openThread}
          onCreate={createThread}
          onClose={closeSidebar}
          onNotice={setNotice}
          attempt={attempt}
        />
        {layout.sidebarOpen ? (
          <button type="button" className="chat-backdrop chat-only-narrow" aria-label="Close the chat list" onClick={closeSidebar} />
        ) : null}
        <ChatToasts
          stores={stores}
          problem={problem}
          notice={notice}
          onDismiss={() => setProblem(undefined)}
          onDismissNotice={() => setNotice(undefined)}
        />
        {layout.settingsOpen ? <ChatSettings settings={settings} speed={speed} onSettings={setSettings} onClose={closeSettings} /> : null}
        {activeId === undefined || choice === undefined ? (
          <NoOpenChat list={list} onCreate={createThread} />
        ) : (
          // Repeated on purpose: props one a line, like demo/src/lab/lab-app.tsx (other components; the chat and the lab share no code).
          <ActiveChat
            key={activeId}
            stores={stores}
            threadId={activeId}
            title={titleOf(record)}
            agent={agent}
            setup={setup}
            modelLabel={modelLabel(settings)}
            options={options}
            choices={choices}
            choice={choice}
            onPolicy={setPolicyId}
            tools={tools}
            toolSchemas={demoToolSchemas}
            memory={memory}
            readMemory={readMemory}
            actions={actions}
            onOpen={openThread}
            onProblem={setProblem}
            layout={layout}
          />
        )}
      </div>
    </DemoSyncContext.Provider>
  )
}

/** The app-wide problem line and `attempt`, which runs an action and puts what failed there. */
function useProblem() {
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const attempt = useCallback(async <T,>(what: string, action: () => Promise<T>): Promise<T | undefined> => {
    try {
      setProblem(undefined)
      return await action()
    } catch (error) {
      setProblem(`${what} failed: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    }
  }, [])
  return [problem, setProblem, attempt] as const
}

interface ChatToastsProps {
  readonly stores: ThreadlensStores
  readonly problem: string | undefined
  readonly notice: string | undefined
  onDismiss(): void
  onDismissNotice(): void
}

/** Banners over the chat: storage that will not survive a reload, the last action that failed, what an import did. */
function ChatToasts({ stores, problem, notice, onDismiss, onDismissNotice }: ChatToastsProps) {
  return (
    <div className="chat-toasts">
      {stores.persistent ? null : (
        <p className="chat-banner" role="alert">
          IndexedDB is not available here ({stores.unavailable.message}): chats live in this tab only and are gone after a reload.
        </p>
      )}
      {problem === undefined ? null : (
        <DismissibleLine className="chat-banner chat-banner--error" role="alert" testId="app-problem" text={problem} onDismiss={onDismiss} />
      )}
      {notice === undefined ? null : (
        <DismissibleLine className="chat-banner chat-banner--done" role="status" testId="app-notice" text={notice} onDismiss={onDismissNotice} />
      )}
    </div>
  )
}

/** What shows while no chat is open: the chat opening, or a way to create the first one. */
function NoOpenChat({ list, onCreate }: { readonly list: ThreadListSnapshot; onCreate(): void }) {
  return (
    <main className="chat-main chat-main--empty">
      <p className="chat-muted" role="status">
        {list.status === 'ready' && list.records.length === 0 ? 'No chats: create one to start.' : 'Opening the chat…'}
      </p>
      {list.status === 'ready' && list.records.length === 0 ? (
        <button type="button" className="chat-button chat-button--primary" onClick={onCreate}>
          New chat
        </button>
      ) : null}
    </main>
  )
}

interface ChatSettingsProps {
  readonly settings: ModelSettings
  /** The scripted model's speed, which a model setup needs. */
  readonly speed: ReturnType<typeof scriptedSpeed>
  onSettings(next: ModelSettings): void
  onClose(): void
}

/** The model settings panel; new settings apply only once a model setup accepts them. */
function ChatSettings({ settings, speed, onSettings, onClose }: ChatSettingsProps) {
  return (
    <div id="chat-settings" className="chat-settings-host">
      <SettingsPanel
        settings={settings}
        onApply={async (next) => {
          ;(await loadChatAgent()).modelSetup(next, speed) // throws on a bad URL or a missing field, before anything changes
          onSettings(next)
        }}
        onClose={onClose}
      />
    </div>
  )
}
