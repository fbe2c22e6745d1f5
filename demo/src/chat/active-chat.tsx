import type { Tool } from '@threadlens/agent'
import type { Memory, ToolSchema } from '@threadlens/core'
import { useThread } from '@threadlens/react'
import type { ThreadlensStores } from '@threadlens/store'
import { ChatBody } from './chat-body'
import type { ModelSetup } from './model/model-settings'
import type { ChatAgent } from './session/load-chat-agent'
import type { ChatPolicyChoice, ChatPolicyOption } from './policy/chat-policies'
import type { ThreadActions } from './threads/thread-actions'

export interface ChatLayout {
  readonly sidebarOpen: boolean
  readonly devtoolsOpen: boolean
  readonly settingsOpen: boolean
  toggleSidebar(): void
  toggleDevtools(): void
  toggleSettings(): void
}

export interface ActiveChatProps {
  readonly stores: ThreadlensStores
  readonly threadId: string
  readonly title: string
  /** The sending part of the chat (session, model clients, tools): `undefined` until it has loaded. */
  readonly agent: ChatAgent | undefined
  /** The model; `undefined` until the sending part has loaded. */
  readonly setup: ModelSetup | undefined
  /** What the header shows for the model, known from the start. */
  readonly modelLabel: string
  /** What the policy menu lists. */
  readonly options: readonly ChatPolicyOption[]
  /** The choices whose policy is known (the devtools offer them too). */
  readonly choices: readonly ChatPolicyChoice[]
  readonly choice: ChatPolicyChoice
  onPolicy(id: string): void
  /** The tools; `undefined` until the sending part has loaded. */
  readonly tools: readonly Tool<unknown>[] | undefined
  /** What the tools send to the model, known from the start (the meter and the devtools project with them). */
  readonly toolSchemas: readonly ToolSchema[]
  /** The assistant's memory as last committed (rendered into the meter's projection). */
  readonly memory: Memory | undefined
  readonly readMemory: () => Promise<Memory>
  readonly actions: ThreadActions
  onOpen(threadId: string): void
  onProblem(problem: string | undefined): void
  readonly layout: ChatLayout
}

/**
 * The open chat: loading, deleted and failed states here; the chat itself once the thread is
 * loaded. The body (and the devtools in it) unmounts as soon as the thread is deleted or fails:
 * `useProjection` of @threadlens/react returns a new snapshot on every read for such a thread,
 * which React reports as an infinite update loop.
 */
export function ActiveChat(props: ActiveChatProps) {
  const snapshot = useThread(props.threadId)
  if (snapshot.status === 'ready' && snapshot.thread !== undefined) return <ChatBody {...props} snapshot={snapshot} thread={snapshot.thread} />
  const message =
    snapshot.status === 'error'
      ? `This chat could not be read: ${snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error)}`
      : snapshot.status === 'deleted'
        ? 'This chat was deleted.'
        : 'Loading the chat…'
  return (
    <main className="chat-main chat-main--empty" aria-label={props.title}>
      <p
        className={snapshot.status === 'error' ? 'chat-error-text' : 'chat-muted'}
        role={snapshot.status === 'error' ? 'alert' : 'status'}
        data-testid="chat-view-loading"
      >
        {message}
      </p>
    </main>
  )
}
