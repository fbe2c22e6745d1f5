import { createSessionSource } from '@threadlens/client'
import type { ContextPolicy } from '@threadlens/core'
import { DevtoolsAttachmentLoader, ThreadlensDevtools } from '@threadlens/devtools/production'
import { useMemo, type ComponentProps, type RefObject } from 'react'
import type { ActiveChatProps } from './active-chat'
import { ASSISTANT_MEMORY_ID, DEVTOOLS_STORAGE_KEY } from './chat-config'
import { isModelChoiceId } from './policy/chat-policies'
import { useDemoSyncContext } from './sync/use-demo-sync'

// First visit only (the devtools remember what the user chose): open beside a wide chat, docked to
// the right where there is room for both columns, to the bottom on a phone.
const firstVisitOpen = () => globalThis.matchMedia?.('(min-width: 1100px)').matches ?? true
const firstVisitDock = () => ((globalThis.matchMedia?.('(min-width: 900px)').matches ?? true) ? 'right' : 'bottom')

interface ChatDevtoolsProps {
  /** The chat's session, undefined until it has loaded. */
  readonly session: ComponentProps<typeof ThreadlensDevtools>['session'] | undefined
  readonly threadId: string
  readonly policy: ContextPolicy
  readonly choices: ActiveChatProps['choices']
  readonly toolSchemas: ActiveChatProps['toolSchemas']
  /** The memory the next call carries (`useNextCallMemory`). */
  readonly memory: ComponentProps<typeof ThreadlensDevtools>['memory']
  /** The thread's recall index, once the sending part has loaded: the panel recalls what the session does. */
  readonly recall: ComponentProps<typeof ThreadlensDevtools>['recall']
  readonly loadAttachment: ComponentProps<typeof DevtoolsAttachmentLoader>['load']
  readonly toggleRef: RefObject<HTMLButtonElement | null>
}

/** The devtools panel on the open chat's session, toggled from the chat header. */
export function ChatDevtools({ session, threadId, policy, choices, toolSchemas, memory, recall, loadAttachment, toggleRef }: ChatDevtoolsProps) {
  // Until the session has loaded the devtools see an idle one with the same tools: nothing they show changes when it arrives.
  const idleSession = useMemo(() => createSessionSource({ status: 'idle', threadId, tools: toolSchemas }), [threadId, toolSchemas])
  // The per-model choices; the devtools list the presets themselves.
  const modelPolicies = useMemo(() => choices.filter((item) => isModelChoiceId(item.id)), [choices])
  // Sync's status while sync runs: the Storage tab shows it.
  const sync = useDemoSyncContext().status
  return (
    <DevtoolsAttachmentLoader load={loadAttachment}>
      <ThreadlensDevtools
        session={session ?? idleSession}
        threadId={threadId}
        policy={policy}
        policies={modelPolicies}
        {...(memory === undefined ? {} : { memory })}
        {...(recall === undefined ? {} : { recall })}
        {...(sync === undefined ? {} : { sync })}
        agentId={ASSISTANT_MEMORY_ID}
        storageKey={DEVTOOLS_STORAGE_KEY}
        initialIsOpen={firstVisitOpen()}
        initialDock={firstVisitDock()}
        showToggle={false}
        toggleRef={toggleRef}
      />
    </DevtoolsAttachmentLoader>
  )
}
