import type { ContentPart, Entry, JsonObject } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { toolResultText } from '../entries/entry-text'

export type ReasoningItem =
  | {
      readonly kind: 'message'
      readonly seq: number
      readonly role: 'user' | 'assistant'
      readonly content: string
      readonly interrupted: boolean
      /** The speaker's name, when the message has one. */
      readonly name?: string
      /** The assistant's refusal, apart from its text. */
      readonly refusal?: string
      /** The message's parts (text, images, files) when its content is more than a string. */
      readonly parts?: readonly ContentPart[]
    }
  | {
      readonly kind: 'tool'
      readonly seq: number
      readonly toolCallId: string
      readonly name: string
      readonly arguments: JsonObject
      /** `pending` until a result arrives. */
      readonly status: 'ok' | 'error' | 'pending'
      /** The result's text (or error message) once it exists. */
      readonly output: string | undefined
      readonly resultSeq: number | undefined
      /** Set when the output was cut before it entered the thread. */
      readonly truncated: { readonly totalBytes: number; readonly totalLines: number } | undefined
    }

/**
 * The conversation plus the tool trace the model worked with: every user and assistant message
 * with text, a refusal, or an image or file, and every tool call with its outcome, at the call's place. For chat UIs that show
 * tool calls as cards, and for reading what an agent did.
 */
export function reasoningView(thread: ThreadSource | readonly Entry[]): ReasoningItem[] {
  const entries: readonly Entry[] = Array.isArray(thread) ? (thread as readonly Entry[]) : (thread as ThreadSource).entries
  const results = new Map<string, Entry & { kind: 'tool_result' }>()
  for (const entry of entries) if (entry.kind === 'tool_result') results.set(entry.refs.toolCallId as string, entry)
  const items: ReasoningItem[] = []
  for (const entry of entries) {
    if (entry.kind === 'message') {
      const { role, content, name, refusal, parts } = entry.payload
      const hasMedia = parts?.some((part) => part.type !== 'text') === true
      if (role === 'system' || (content === '' && refusal === undefined && !hasMedia)) continue
      items.push({
        kind: 'message',
        seq: entry.seq,
        role,
        content,
        interrupted: entry.meta?.interrupted === true,
        ...(name === undefined ? {} : { name }),
        ...(refusal === undefined ? {} : { refusal }),
        ...(parts === undefined ? {} : { parts }),
      })
    } else if (entry.kind === 'tool_call') {
      const toolCallId = entry.refs.toolCallId as string
      const result = results.get(toolCallId)
      const truncated = result?.meta?.truncated
      items.push({
        kind: 'tool',
        seq: entry.seq,
        toolCallId,
        name: entry.payload.name,
        arguments: entry.payload.arguments,
        status: result === undefined ? 'pending' : result.payload.error === undefined ? 'ok' : 'error',
        output: result === undefined ? undefined : (result.payload.error ?? toolResultText(result.payload)),
        resultSeq: result?.seq,
        truncated: truncated === undefined ? undefined : { totalBytes: truncated.totalBytes, totalLines: truncated.totalLines },
      })
    }
  }
  return items
}
