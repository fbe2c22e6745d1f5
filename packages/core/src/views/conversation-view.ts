import type { Entry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'

export interface ConversationMessage {
  readonly seq: number
  readonly role: 'user' | 'assistant'
  readonly content: string
  readonly createdAt: number
  /** The reply was cut short (aborted stream). */
  readonly interrupted: boolean
}

/**
 * The clean user ⇄ assistant conversation for a chat UI: every user and assistant message with
 * text, in order, whatever any policy would send to a model. Tool traffic, system messages,
 * summaries and context ops are left out.
 */
export function conversationView(thread: ThreadSource | readonly Entry[]): ConversationMessage[] {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const messages: ConversationMessage[] = []
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.payload.role === 'system' || entry.payload.content === '') continue
    messages.push({
      seq: entry.seq,
      role: entry.payload.role,
      content: entry.payload.content,
      createdAt: entry.createdAt,
      interrupted: entry.meta?.interrupted === true,
    })
  }
  return messages
}
