import { compact, type ContextPolicy, type Memory, type Summarizer, type TokenCounter, type ToolSchema } from '@threadlens/core'
import { generateId, type UIMessage } from 'ai'
import type { ChatPersistence } from './chat-persistence'
import { projectModelMessagesWithFiles } from './model-messages'
import { withApprovalResponses } from './tool-approvals'
import { stepCallId } from './ui-message-entries'

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

/**
 * What one send asks the model, from the projection and the chat's messages: the projected messages
 * with the user's answers to tool approvals last (where `streamText` acts on them), the reply's id (a
 * continued assistant message keeps its own) and the call's id (the reply's next step).
 */
export function modelCall(projected: Awaited<ReturnType<typeof projectModelMessagesWithFiles>>, messages: readonly UIMessage[]) {
  const last = messages.at(-1)
  const modelMessages = withApprovalResponses(projected.messages, last)
  const continuing = last?.role === 'assistant' ? last : undefined
  const responseId = continuing?.id ?? generateId()
  const callId = stepCallId(responseId, continuing === undefined ? 0 : stepsIn(continuing))
  return { instructions: projected.instructions, projection: projected.projection, modelMessages, responseId, callId }
}

/** Steps already in an assistant message, counted as the thread conversion counts them. */
export function stepsIn(message: UIMessage): number {
  let steps = 0
  let open = false
  for (const part of message.parts) {
    if (part.type === 'step-start') {
      open = false
      continue
    }
    if (!open) {
      steps += 1
      open = true
    }
  }
  return steps
}
