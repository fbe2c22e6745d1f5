import { createSessionSource } from '@threadlens/client'
import { useProjection, useSession } from '@threadlens/react'
import { useCallback } from 'react'
import type { ChatBodyProps } from './chat-body'
import { useCountingPolicy } from './counting/use-counting-policy'
import { useNextCallMemory } from './memory/use-next-call-memory'
import { useRecallIndex } from './session/recall-indexes'
import { useChatSession } from './session/use-chat-session'
import { useChatActions } from './use-chat-actions'

const noSession = createSessionSource({ status: 'idle', threadId: '' })

/** The open chat's state, from its loaded thread: the session on it, what the next call will send, and what the chat can do. */
export function useOpenChat(props: ChatBodyProps) {
  const { stores, threadId, choice, thread } = props
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
  const busy = actions.state.phase !== 'idle' || status !== 'idle' || actions.working
  // While a call is on its way the meter shows that call; otherwise the next one.
  const inFlightMeta = status !== 'idle' && inFlight !== undefined ? inFlight.meta : undefined
  return { policy, recall, session, loadAttachment, streamingText, inFlightMeta, memory, projection, actions, busy }
}
