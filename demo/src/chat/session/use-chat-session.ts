import { createSession, type Session, type Tool } from '@threadlens/agent'
import type { Memory } from '@threadlens/core'
import type { CallLogStore, ThreadStore } from '@threadlens/store'
import type { AttachmentStore } from '@threadlens/store/attachments'
import { useEffect, useMemo } from 'react'
import type { ModelSetup } from '../model/model-settings'

export interface ChatSessionOptions {
  readonly threads: ThreadStore
  /** Where failed attempts and token calibrations are kept (the stores' `calls`). */
  readonly callLog: CallLogStore
  readonly threadId: string | undefined
  readonly setup: ModelSetup
  readonly tools: readonly Tool<unknown>[]
  /** The memory rendered into every model call (its `policy.memorySpaces`), read fresh each call. */
  readonly memory: () => Promise<Memory>
  /** Where pasted images and files are kept: the session reads their bytes for each call. */
  readonly attachments: AttachmentStore
}

/** One session per open thread and model; the policy is given per request, so switching presets keeps it. */
export function useChatSession({ threads, callLog, threadId, setup, tools, memory, attachments }: ChatSessionOptions): Session | undefined {
  const session = useMemo(
    () => (threadId === undefined ? undefined : createSession({ threads, callLog, threadId, model: setup.client, summarizer: setup.summarizer, tools, memory, attachments })),
    [threads, callLog, threadId, setup, tools, memory, attachments],
  )
  // A request still running keeps going when the user opens another thread; only the mirror stops.
  useEffect(() => () => session?.close(), [session])
  return session
}
