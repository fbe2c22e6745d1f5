import { compact, type ContextPolicy, type Memory, type Summarizer, type TokenCounter, type ToolSchema } from '@threadlens/core'
import type { ChatPersistence } from './chat-persistence'
import { projectModelMessagesWithFiles } from './model-messages'

export { withApprovalResponses } from './tool-approvals'

// The projection and compaction a send runs, in a module of their own: the transport loads it once
// the page has painted (or at the first send), so an app's first load does not carry them.

/** The thread and its projection for one send, compacted first when the policy says it needs a summary. */
export async function projectForSend(send: {
  readonly persistence: ChatPersistence
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly toolSchemas: readonly ToolSchema[]
  readonly memory: string | Memory | undefined
  readonly summarizer: Summarizer | undefined
  readonly abortSignal: AbortSignal | undefined
}): Promise<{ thread: Awaited<ReturnType<ChatPersistence['thread']>>; projected: Awaited<ReturnType<typeof projectModelMessagesWithFiles>> }> {
  const { persistence, policy, counter, toolSchemas, memory, summarizer, abortSignal } = send
  let thread = await persistence.thread()
  const attachments = await persistence.attachments()
  const projectNow = () =>
    projectModelMessagesWithFiles(
      {
        thread,
        policy,
        counter,
        ...(toolSchemas.length === 0 ? {} : { tools: toolSchemas }),
        ...(memory === undefined ? {} : { memory }),
      },
      attachments,
    )
  let projected = await projectNow()
  if (summarizer !== undefined && projected.projection.meta.needsSummary) {
    // Compaction keeps history: a summary entry is appended (or a recorded failure), nothing is removed.
    const compaction = await compact({
      thread,
      policy,
      counter,
      summarizer,
      // The request's own projection, tools and memory: before/after are the counts the meter shows.
      projection: projected.projection,
      ...(toolSchemas.length === 0 ? {} : { tools: toolSchemas }),
      ...(memory === undefined ? {} : { memory }),
      ...(abortSignal === undefined ? {} : { signal: abortSignal }),
    })
    if (compaction.entries.length > 0) {
      await persistence.append(compaction.entries)
      thread = await persistence.thread()
      projected = await projectNow()
    }
  }
  return { thread, projected }
}
