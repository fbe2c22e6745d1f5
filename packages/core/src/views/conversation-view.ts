import type { ContentPart, Entry } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'

export interface ConversationMessage {
  readonly seq: number
  readonly role: 'user' | 'assistant'
  readonly content: string
  readonly createdAt: number
  /** The reply was cut short (aborted stream). */
  readonly interrupted: boolean
  /** The speaker's name, when the message has one. */
  readonly name?: string
  /** The assistant's refusal, apart from its text. */
  readonly refusal?: string
  /** The message's parts (text, images, files) when its content is more than a string. */
  readonly parts?: readonly ContentPart[]
}

/**
 * The clean user ⇄ assistant conversation for a chat UI: every user and assistant message with
 * text, a refusal, or an image or file, in order, whatever any policy would send to a model. Tool traffic, system messages,
 * summaries and context ops are left out.
 */
export function conversationView(thread: ThreadSource | readonly Entry[]): ConversationMessage[] {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const messages: ConversationMessage[] = []
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.payload.role === 'system') continue
    const { content, name, refusal, parts } = entry.payload
    const hasMedia = parts?.some((part) => part.type !== 'text') === true
    if (content === '' && refusal === undefined && !hasMedia) continue
    const message: { -readonly [K in keyof ConversationMessage]: ConversationMessage[K] } = {
      seq: entry.seq,
      role: entry.payload.role,
      content,
      createdAt: entry.createdAt,
      interrupted: entry.meta?.interrupted === true,
    }
    if (name !== undefined) message.name = name
    if (refusal !== undefined) message.refusal = refusal
    if (parts !== undefined) message.parts = parts
    messages.push(message)
  }
  return messages
}
