import type { Thread } from '@threadlens/core'
import { createSessionSource, type ThreadSnapshot } from '@threadlens/client'
import { useProjection, useSession } from '@threadlens/react'
import { useCallback, useRef } from 'react'
import { ChatDevtools } from './chat-devtools'
import { ChatNotices } from './conversation/chat-notices'
import { ChatView } from './conversation/chat-view'
import { Composer } from './conversation/composer'
import { ModelServerNotices } from './conversation/model-server-notices'
import { ChatHeader } from './header/chat-header'
import { useNextCallMemory } from './memory/use-next-call-memory'
import { useChatSession } from './session/use-chat-session'
import { loadChatAgent } from './session/load-chat-agent'
import { useChatActions } from './use-chat-actions'
import { useCountingPolicy } from './counting/use-counting-policy'
import type { ActiveChatProps } from './active-chat'
import { useRecallIndex } from './session/recall-indexes'

export type ChatBodyProps = ActiveChatProps & { readonly snapshot: ThreadSnapshot; readonly thread: Thread }

const noSession = createSessionSource({ status: 'idle', threadId: '' })
// Focus and typing in the composer start loading what sending needs (if idle time has not yet).
const warmUp = () => void loadChatAgent().catch(() => undefined)

/**
 * The open chat once its thread is loaded: header with meter, conversation, composer, and the
 * devtools panel on its session. `ActiveChat` unmounts it when the thread is deleted or fails.
 */
export function ChatBody(props: ChatBodyProps) {
  const { stores, threadId, choice, layout, thread } = props
  // Estimated counts until the visitor first interacts and the exact encoding has loaded.
  const policy = useCountingPolicy(choice.policy)
  // The session's recall index (it comes with the sending part), restored from the store: the meter and the greyed messages recall what the next call will.
  const recall = useRecallIndex(stores.threads, threadId, props.agent?.createRecallIndex)
  const chatSession = useChatSession({
    agent: props.agent,
    threads: stores.threads,
    callLog: stores.calls,
    threadId,
    setup: props.setup,
    tools: props.tools,
    memory: props.readMemory,
    attachments: stores.attachments,
    recall,
  })
  const session = chatSession.session
  const loadAttachment = useCallback((id: string) => stores.attachments.get(id), [stores.attachments])
  const status = useSession(session ?? noSession, (state) => state.status)
  const streamingText = useSession(session ?? noSession, (state) => (state.status === 'awaiting-model' ? (state.streamingText ?? '') : ''))
  const inFlight = useSession(session ?? noSession, (state) => state.lastProjection)
  // The next call's memory as the session will send it (its hold included), so the meter and the devtools show that call.
  const memory = useNextCallMemory(session, props.memory, policy, thread.nextSeq, status === 'idle')
  const projection = useProjection(threadId, policy, {
    tools: props.toolSchemas,
    ...(recall === undefined ? {} : { recall }),
    ...(memory === undefined ? {} : { memory }),
  })
  const actions = useChatActions(props, chatSession, projection, memory)
  const { state, draftAttachments, working } = actions
  const devtoolsToggle = useRef<HTMLButtonElement>(null)
  const busy = state.phase !== 'idle' || status !== 'idle' || working

  return (
    <>
      <main className="chat-main" aria-label={props.title}>
        <ChatHeader
          title={props.title}
          entryCount={thread.entries.length}
          modelLabel={props.modelLabel}
          options={props.options}
          policyId={choice.id}
          onPolicy={props.onPolicy}
          meta={status !== 'idle' && inFlight !== undefined ? inFlight.meta : projection.result?.meta}
          meterSource={status !== 'idle' && inFlight !== undefined ? 'in-flight' : 'next-call'}
          busy={busy}
          sidebarOpen={layout.sidebarOpen}
          devtoolsOpen={layout.devtoolsOpen}
          devtoolsToggleRef={devtoolsToggle}
          settingsOpen={layout.settingsOpen}
          onToggleSidebar={layout.toggleSidebar}
          onToggleDevtools={layout.toggleDevtools}
          onToggleSettings={layout.toggleSettings}
          onLongSession={actions.longSession}
          onCompact={actions.compact}
        />
        <ChatNotices
          phase={state.phase}
          error={state.error}
          notice={state.notice ?? actions.notice}
          projectionError={projection.status === 'error' ? projection.error : undefined}
          onDismiss={actions.dismissAll}
        />
        {session === undefined ? null : (
          <div className="chat-notices">
            <ModelServerNotices session={session} />
          </div>
        )}
        <ChatView
          thread={thread}
          meta={projection.result?.meta}
          pending={state.pending}
          waitingForTab={state.phase === 'waiting'}
          streamingText={streamingText}
          busy={busy}
          onFork={actions.fork}
          onSuggest={(text) => void actions.submit(text)}
          loadAttachment={loadAttachment}
        />
        <Composer
          draft={actions.draft}
          onDraft={(text) => {
            actions.setDraft(text)
            warmUp()
          }}
          onFocus={warmUp}
          onSend={(text) => void actions.submit(text)}
          onStop={actions.stop}
          running={state.phase !== 'idle'}
          disabled={working}
          attachments={draftAttachments.attachments}
          onAttach={actions.attach}
          onRemoveAttachment={draftAttachments.remove}
        />
      </main>
      <ChatDevtools
        session={session}
        threadId={threadId}
        policy={policy}
        choices={props.choices}
        toolSchemas={props.toolSchemas}
        memory={memory}
        recall={recall}
        loadAttachment={loadAttachment}
        toggleRef={devtoolsToggle}
      />
    </>
  )
}
