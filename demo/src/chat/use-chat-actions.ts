import type { Memory } from '@threadlens/core'
import type { ProjectionSnapshot } from '@threadlens/react'
import { useState } from 'react'
import { DEFAULT_TITLE } from './chat-config'
import type { ChatBodyProps } from './chat-body'
import { attachmentParts } from './conversation/attachment-parts'
import { useDraftAttachments } from './conversation/draft-attachments'
import type { ChatSession } from './session/use-chat-session'
import { useSend } from './session/use-send'

/**
 * What the open chat can do and the state those actions keep: the draft and its attachments, the
 * send in progress, the notice line, and the one-at-a-time work of forking, compacting and the long session.
 */
export function useChatActions(props: ChatBodyProps, chatSession: ChatSession, projection: ProjectionSnapshot, memory: string | Memory | undefined) {
  const { stores, threadId, thread } = props
  const policy = props.choice.policy
  const draftAttachments = useDraftAttachments()
  const { state, send, stop, dismiss } = useSend(chatSession, { policy, projection: projection.result })
  const [draft, setDraft] = useState('')
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [working, setWorking] = useState(false)

  const submit = async (text: string) => {
    setDraft('')
    setNotice(undefined)
    const files = draftAttachments.attachments.map((attachment) => attachment.file)
    draftAttachments.clear()
    const firstMessage = !thread.entries.some((entry) => entry.kind === 'message' && entry.payload.role === 'user')
    if (firstMessage && props.title === DEFAULT_TITLE && text !== '')
      void props.actions.rename(threadId, text.replace(/\s+/g, ' ').slice(0, 48)).catch(() => undefined)
    const parts = files.length === 0 ? undefined : () => attachmentParts(stores.attachments, threadId, files)
    if ((await send(text, parts)) === 'cancelled') {
      setDraft(text)
      draftAttachments.add(files)
    }
  }
  const attach = (files: readonly File[]) => {
    const refused = draftAttachments.add(files)
    if (refused.length > 0)
      setNotice(`Not attached (only images, PDFs and text files): ${refused.map((file) => file.name || file.type || 'a file').join(', ')}`)
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
  // The long session's generator (and the tools' code it borrows) loads on the click: a chat that never uses it does not download it.
  const longSession = () =>
    void run('The long session', async () => {
      const { appendLongSession } = await import('./long-session/append-long-session')
      return appendLongSession(stores.threads, threadId, policy, projection.counter, props.toolSchemas, memory)
    })
  const compact = () =>
    void run('Compacting', async () => {
      const before = thread.entries.length
      await (await chatSession.ready()).compactNow(policy)
      const after = (await stores.threads.get(threadId))?.entryCount ?? before
      return after > before
        ? 'Summarized what the policy allows: see the summary card.'
        : 'Nothing to summarize yet: the newest turns are always kept raw.'
    })
  return { state, stop, draft, setDraft, notice, working, draftAttachments, submit, attach, fork, dismissAll, longSession, compact }
}
