import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UIMessage } from 'ai'

interface AnsweredApproval {
  readonly toolCallId: string
  readonly toolName: string
  readonly input: unknown
  readonly approval: { readonly id: string; readonly approved: boolean; readonly reason?: string }
}

/** Tool parts of `message` whose approval the user answered and whose call has not run yet. */
function answeredApprovals(message: UIMessage | undefined): AnsweredApproval[] {
  if (message?.role !== 'assistant') return []
  const answered: AnsweredApproval[] = []
  for (const part of message.parts) {
    if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) continue
    const tool = part as {
      type: string
      toolName?: string
      toolCallId: string
      state: string
      input?: unknown
      approval?: { id: string; approved?: boolean; reason?: string }
    }
    if (tool.state !== 'approval-responded' || tool.approval?.approved === undefined) continue
    const toolName = tool.type === 'dynamic-tool' ? (tool.toolName ?? 'tool') : tool.type.slice('tool-'.length)
    const { id, approved, reason } = tool.approval
    answered.push({
      toolCallId: tool.toolCallId,
      toolName,
      input: tool.input ?? {},
      approval: { id, approved, ...(reason === undefined ? {} : { reason }) },
    })
  }
  return answered
}

/**
 * The projected messages with the user's answers to tool approvals (`addToolApprovalResponse`) of
 * the last message, in the shape `streamText` acts on: the call with its `tool-approval-request`,
 * then a tool message with the `tool-approval-response` (and, for a denial, the `execution-denied`
 * result), last. `streamText` then runs an approved call (or reports a denied one) before asking the
 * model. The thread holds such a call without a result until it has run, so the projection has it
 * unanswered (an interruption note, or left out under `unresolvedToolCalls: 'drop'`): that copy is
 * replaced. Nothing changes when the last message answers no approval.
 */
export function withApprovalResponses(messages: readonly ModelMessage[], last: UIMessage | undefined): ModelMessage[] {
  const answered = answeredApprovals(last)
  if (answered.length === 0) return [...messages]
  const ids = new Set(answered.map((call) => call.toolCallId))
  const result: ModelMessage[] = []
  for (const message of messages) {
    if (message.role === 'tool') {
      const content = message.content.filter((part) => !(part.type === 'tool-result' && ids.has(part.toolCallId)))
      if (content.length > 0) result.push({ ...message, content })
    } else if (message.role === 'assistant' && Array.isArray(message.content)) {
      const content = message.content.filter((part) => !(part.type === 'tool-call' && ids.has(part.toolCallId)))
      if (content.length > 0) result.push({ ...message, content })
    } else {
      result.push(message)
    }
  }
  const calls: AssistantModelMessage = {
    role: 'assistant',
    content: answered.flatMap(({ toolCallId, toolName, input, approval }) => [
      { type: 'tool-call' as const, toolCallId, toolName, input },
      { type: 'tool-approval-request' as const, approvalId: approval.id, toolCallId },
    ]),
  }
  const responses: ToolModelMessage = {
    role: 'tool',
    content: answered.flatMap(({ toolCallId, toolName, approval }) => [
      {
        type: 'tool-approval-response' as const,
        approvalId: approval.id,
        approved: approval.approved,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      },
      ...(approval.approved
        ? []
        : [
            {
              type: 'tool-result' as const,
              toolCallId,
              toolName,
              output: { type: 'execution-denied' as const, ...(approval.reason === undefined ? {} : { reason: approval.reason }) },
            },
          ]),
    ]),
  }
  return [...result, calls, responses]
}
