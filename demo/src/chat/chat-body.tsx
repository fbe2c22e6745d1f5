import { DevtoolsAttachmentLoader, ThreadlensDevtools } from '@threadlens/devtools/production'
import type { Thread } from '@threadlens/core'
import { createSessionSource, type ThreadSnapshot } from '@threadlens/client'
import { useProjection, useSession } from '@threadlens/react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ASSISTANT_MEMORY_ID, DEFAULT_TITLE, DEVTOOLS_STORAGE_KEY } from './chat-config'
import { ChatNotices } from './conversation/chat-notices'
import { ChatView } from './conversation/chat-view'
import { Composer } from './conversation/composer'
import { ModelServerNotices } from './conversation/model-server-notices'
import { ChatHeader } from './header/chat-header'
import { appendLongSession } from './long-session/append-long-session'
import { useMemoryText } from './memory/use-memory-text'
import { useChatSession } from './session/use-chat-session'
import { useSend } from './session/use-send'
import { loadChatAgent } from './session/load-chat-agent'
import { attachmentParts } from './conversation/attachment-parts'
import { useDraftAttachments } from './conversation/draft-attachments'
import type { ActiveChatProps } from './active-chat'

const noSession = createSessionSource({ status: 'idle', threadId: '' })
// Focus and typing in the composer start loading what sending needs (if idle time has not yet).
const warmUp = () => void loadChatAgent().catch(() => undefined)

// First visit only (the devtools remember what the user chose): open beside a wide chat, docked to
// the right where there is room for both columns, to the bottom on a phone.
const firstVisitOpen = () => globalThis.matchMedia?.('(min-width: 1100px)').matches ?? true
const firstVisitDock = () => ((globalThis.matchMedia?.('(min-width: 900px)').matches ?? true) ? 'right' : 'bottom')

/**
 * The open chat once its thread is loaded: header with meter, conversation, composer, and the
 * devtools panel on its session. `ActiveChat` unmounts it when the thread is deleted or fails.
 */
export function ChatBody(props: ActiveChatProps & { readonly snapshot: ThreadSnapshot; readonly thread: Thread }) {
  const { stores, threadId, choice, layout, snapshot, thread } = props
  const policy = choice.policy
  const schemas = props.toolSchemas
  const memoryText = useMemoryText(props.memory, policy)
  const projection = useProjection(threadId, policy, { tools: schemas, ...(memoryText === undefined ? {} : { memory: memoryText }) })
  const chatSession = useChatSession({
    agent: props.agent,
    threads: stores.threads,
    callLog: stores.calls,
    threadId,
    setup: props.setup,
    tools: props.tools,
    memory: props.readMemory,
    attachments: stores.attachments,
  })
  const session = chatSession.session
  // Until the session has loaded the devtools see an idle one with the same tools: nothing they show changes when it arrives.
  const idleSession = useMemo(() => createSessionSource({ status: 'idle', threadId, tools: schemas }), [threadId, schemas])
  const draftAttachments = useDraftAttachments()
  const loadAttachment = useCallback((id: string) => stores.attachments.get(id), [stores.attachments])
  const status = useSession(session ?? noSession, (state) => state.status)
  const streamingText = useSession(session ?? noSession, (state) => (state.status === 'awaiting-model' ? (state.streamingText ?? '') : ''))
  const inFlight = useSession(session ?? noSession, (state) => state.lastProjection)
  const { state, send, stop, dismiss } = useSend(chatSession, { policy, projection: projection.result })
  const devtoolsToggle = useRef<HTMLButtonElement>(null)
  const [draft, setDraft] = useState('')
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [working, setWorking] = useState(false)
  const busy = state.phase !== 'idle' || status !== 'idle' || working

  const submit = async (text: string) => {
    setDraft('')
    setNotice(undefined)
    const files = draftAttachments.attachments.map((attachment) => attachment.file)
    draftAttachments.clear()
    const firstMessage = !thread.entries.some((entry) => entry.kind === 'message' && entry.payload.role === 'user')
    if (firstMessage && props.title === DEFAULT_TITLE && text !== '') void props.actions.rename(threadId, text.replace(/\s+/g, ' ').slice(0, 48)).catch(() => undefined)
    const parts = files.length === 0 ? undefined : () => attachmentParts(stores.attachments, threadId, files)
    if ((await send(text, parts)) === 'cancelled') {
      setDraft(text)
      draftAttachments.add(files)
    }
  }
  const attach = (files: readonly File[]) => {
    const refused = draftAttachments.add(files)
    if (refused.length > 0) setNotice(`Not attached (only images, PDFs and text files): ${refused.map((file) => file.name || file.type || 'a file').join(', ')}`)
  }
  const run = async (what: string, action: () => Promise<string | undefined>) => {
    setWorking(true)
    setNotice(undefined)
    try {
      setNotice(await action())
    } catch (error) {
      props.onProblem(`${what} failed: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      setWorking(false)
    }
  }
  const fork = (seq: number) =>
    void run('Forking', async () => {
      props.onOpen(await props.actions.fork(threadId, props.title, seq))
      return undefined
    })
  const dismissAll = () => {
    dismiss()
    setNotice(undefined)
  }
  // The per-model choices; the devtools list the presets themselves.
  const modelPolicies = useMemo(() => props.choices.filter((item) => item.id.startsWith('model:')), [props.choices])

  return (
    <>
      <main className="chat-main" aria-label={props.title}>
        <ChatHeader
          title={props.title}
          entryCount={thread.entries.length}
          modelLabel={props.modelLabel}
          choices={props.choices}
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
          onLongSession={() => void run('The long session', () => appendLongSession(stores.threads, threadId, policy, projection.counter, schemas, memoryText))}
          onCompact={() =>
            void run('Compacting', async () => {
              const before = thread.entries.length
              await (await chatSession.ready()).compactNow(policy)
              const after = (await stores.threads.get(threadId))?.entryCount ?? before
              return after > before ? 'Summarized what the policy allows: see the summary card.' : 'Nothing to summarize yet: the newest turns are always kept raw.'
            })
          }
        />
        <ChatNotices phase={state.phase} error={state.error} notice={state.notice ?? notice} projectionError={projection.status === 'error' ? projection.error : undefined} onDismiss={dismissAll} />
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
          onFork={fork}
          onSuggest={(text) => void submit(text)}
          loadAttachment={loadAttachment}
        />
        <Composer
          draft={draft}
          onDraft={(text) => {
            setDraft(text)
            warmUp()
          }}
          onFocus={warmUp}
          onSend={(text) => void submit(text)}
          onStop={stop}
          running={state.phase !== 'idle'}
          disabled={working}
          attachments={draftAttachments.attachments}
          onAttach={attach}
          onRemoveAttachment={draftAttachments.remove}
        />
      </main>
      <DevtoolsAttachmentLoader load={loadAttachment}>
        <ThreadlensDevtools
          session={session ?? idleSession}
          threadId={threadId}
          policy={policy}
          policies={modelPolicies}
          {...(memoryText === undefined ? {} : { memory: memoryText })}
          agentId={ASSISTANT_MEMORY_ID}
          storageKey={DEVTOOLS_STORAGE_KEY}
          initialIsOpen={firstVisitOpen()}
          initialDock={firstVisitDock()}
          showToggle={false}
          toggleRef={devtoolsToggle}
        />
      </DevtoolsAttachmentLoader>
    </>
  )
}
