import type { Thread } from '@threadlens/core'
import type { ThreadSnapshot } from '@threadlens/client'
import { useRef } from 'react'
import { ChatDevtools } from './chat-devtools'
import { ChatNotices } from './conversation/chat-notices'
import { ChatView } from './conversation/chat-view'
import { Composer } from './conversation/composer'
import { ModelServerNotices } from './conversation/model-server-notices'
import { ChatHeader } from './header/chat-header'
import { loadChatAgent } from './session/load-chat-agent'
import type { ActiveChatProps } from './active-chat'
import { useOpenChat } from './use-open-chat'

export type ChatBodyProps = ActiveChatProps & { readonly snapshot: ThreadSnapshot; readonly thread: Thread }

// Focus and typing in the composer start loading what sending needs (if idle time has not yet).
const warmUp = () => void loadChatAgent().catch(() => undefined)

/**
 * The open chat once its thread is loaded: header with meter, conversation, composer, and the
 * devtools panel on its session. `ActiveChat` unmounts it when the thread is deleted or fails.
 */
export function ChatBody(props: ChatBodyProps) {
  const { session, projection, actions, busy, loadAttachment, streamingText, inFlightMeta, policy, memory, recall } = useOpenChat(props)
  const { state, draftAttachments, working } = actions
  const devtoolsToggle = useRef<HTMLButtonElement>(null)

  return (
    <>
      <main className="chat-main" aria-label={props.title}>
        <ChatHeader
          title={props.title}
          entryCount={props.thread.entries.length}
          modelLabel={props.modelLabel}
          options={props.options}
          policyId={props.choice.id}
          onPolicy={props.onPolicy}
          meta={inFlightMeta ?? projection.result?.meta}
          meterSource={inFlightMeta === undefined ? 'next-call' : 'in-flight'}
          busy={busy}
          layout={props.layout}
          devtoolsToggleRef={devtoolsToggle}
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
          thread={props.thread}
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
        threadId={props.threadId}
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
