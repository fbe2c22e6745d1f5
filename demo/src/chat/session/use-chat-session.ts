import type { Session, Tool } from '@threadlens/agent'
import type { Memory } from '@threadlens/core'
import type { RecallIndex } from '@threadlens/core/recall'
import type { CallLogStore, ThreadStore } from '@threadlens/store'
import type { AttachmentStore } from '@threadlens/store/attachments'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import type { ModelSetup } from '../model/model-settings'
import { loadChatAgent, type ChatAgent } from './load-chat-agent'

export interface ChatSessionOptions {
  /** The sending part of the chat, `undefined` until it has loaded (`useChatAgent`). */
  readonly agent: ChatAgent | undefined
  readonly threads: ThreadStore
  /** Where failed attempts and token calibrations are kept (the stores' `calls`). */
  readonly callLog: CallLogStore
  readonly threadId: string | undefined
  /** The model, `undefined` until the sending part has loaded. */
  readonly setup: ModelSetup | undefined
  /** The tools, `undefined` until the sending part has loaded. */
  readonly tools: readonly Tool<unknown>[] | undefined
  /** The memory rendered into every model call (its `policy.memorySpaces`), read fresh each call. */
  readonly memory: () => Promise<Memory>
  /** Where pasted images and files are kept: the session reads their bytes for each call. */
  readonly attachments: AttachmentStore
  /** The thread's recall index (`useRecallIndex`), `undefined` until restored: the session waits for it. */
  readonly recall: RecallIndex | undefined
}

export interface ChatSession {
  /** The session, `undefined` until the sending part of the chat has loaded. */
  readonly session: Session | undefined
  /** The session as soon as there is one (starts loading the sending part if it has not). */
  ready(): Promise<Session>
}

/** One session per open thread and model; the policy is given per request, so switching presets keeps it. */
export function useChatSession({ agent, threads, callLog, threadId, setup, tools, memory, attachments, recall }: ChatSessionOptions): ChatSession {
  const session = useMemo(
    () =>
      agent === undefined || threadId === undefined || setup === undefined || tools === undefined || recall === undefined
        ? undefined
        : agent.createSession({ threads, callLog, threadId, model: setup.client, summarizer: setup.summarizer, tools, memory, attachments, recall }),
    [agent, threads, callLog, threadId, setup, tools, memory, attachments, recall],
  )
  const waiting = useRef<((session: Session) => void)[]>([])
  useEffect(() => {
    if (session !== undefined) for (const resolve of waiting.current.splice(0)) resolve(session)
  }, [session])
  // A request still running keeps going when the user opens another thread; only the mirror stops.
  useEffect(() => () => session?.close(), [session])
  const ready = useCallback(async (): Promise<Session> => {
    if (session !== undefined) return session
    const next = new Promise<Session>((resolve) => waiting.current.push(resolve))
    await loadChatAgent()
    return next
  }, [session])
  return { session, ready }
}
