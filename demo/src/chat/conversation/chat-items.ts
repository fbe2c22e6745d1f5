import { type Thread } from '@threadlens/core'
import { reasoningView, type ReasoningItem } from '@threadlens/core/views'

/** One row of the chat: a message, a tool call card, a summary, or a context operation worth seeing. */
export type ChatItem =
  | ReasoningItem
  | { readonly kind: 'summary'; readonly seq: number; readonly fromSeq: number; readonly toSeq: number; readonly content: string }
  | { readonly kind: 'operation'; readonly seq: number; readonly text: string }

function operationText(op: string, reason: string, target: number | undefined): string | undefined {
  if (op === 'reset') return `Context reset: nothing before this point is sent (${reason}).`
  if (op === 'compaction-failed') return `A summary could not be written; history is kept as it was (${reason}).`
  if (op === 'pin' && target !== undefined) return `Entry #${target} pinned: always a candidate for the context.`
  if (op === 'unpin' && target !== undefined) return `Entry #${target} unpinned.`
  return undefined
}

/** The reasoning view (messages and tool calls with their results) plus summaries and context operations, in seq order. */
export function chatItems(thread: Thread): ChatItem[] {
  const items: ChatItem[] = reasoningView(thread)
  const extra: ChatItem[] = []
  for (const entry of thread.entries) {
    if (entry.kind === 'summary')
      extra.push({ kind: 'summary', seq: entry.seq, fromSeq: entry.payload.fromSeq, toSeq: entry.payload.toSeq, content: entry.payload.content })
    else if (entry.kind === 'context_op') {
      const text = operationText(entry.payload.op, entry.payload.reason, entry.payload.target)
      if (text !== undefined) extra.push({ kind: 'operation', seq: entry.seq, text })
    }
  }
  if (extra.length === 0) return items
  return [...items, ...extra].sort((first, second) => first.seq - second.seq)
}
