import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import type { Thread, TokenCounter } from '../src/index'
import { toLangChainMessages } from './langchain-trim'

/**
 * A LangChain message as the request would carry it (Chat Completions shape, fixed key order), so
 * two requests compare byte for byte the way a provider's prompt cache compares them. Ids are left
 * out: they never reach the provider.
 */
export function langChainRequestJson(message: BaseMessage): string {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content)
  if (SystemMessage.isInstance(message)) return JSON.stringify({ role: 'system', content })
  if (HumanMessage.isInstance(message)) return JSON.stringify({ role: 'user', content })
  if (ToolMessage.isInstance(message)) return JSON.stringify({ role: 'tool', tool_call_id: message.tool_call_id, content })
  if (AIMessage.isInstance(message)) {
    const calls = message.tool_calls ?? []
    if (calls.length === 0) return JSON.stringify({ role: 'assistant', content })
    return JSON.stringify({
      role: 'assistant',
      content: content === '' ? null : content,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } })),
    })
  }
  return JSON.stringify({ role: message.getType(), content })
}

/**
 * The messages handed to trimMessages for one call: the system prompt, the thread, and the user's
 * pending message. trimMessages (strategy `last`, no partial) keeps the system message and the
 * longest run of newest messages that fits, so only a tail well over the budget can matter: we pass
 * the tail from a user message at least `tailTokens` back, which gives the same output as the whole
 * thread and keeps the bench fast (its cost grows with the list it is given).
 */
export function trimCandidates(options: {
  readonly thread: Thread
  readonly systemPrompt: string
  readonly pending: { readonly id: string; readonly content: string } | undefined
  readonly counter: TokenCounter
  readonly tailTokens: number
  /** Ignore `tailTokens` and pass the whole thread. */
  readonly whole?: boolean
}): { readonly messages: BaseMessage[]; readonly fromStart: boolean } {
  const entries = options.thread.entries
  let start = entries.length
  let tokens = 0
  if (options.whole === true) start = 0
  else {
    while (start > 0 && tokens <= options.tailTokens) tokens += options.counter.countEntry(entries[--start] as (typeof entries)[number])
    // Start on a user message so no model call is split from its tool calls and results.
    while (start > 0) {
      const entry = entries[start] as (typeof entries)[number]
      if (entry.kind === 'message' && entry.payload.role === 'user') break
      start--
    }
  }
  const messages = toLangChainMessages(entries.slice(start), options.systemPrompt)
  if (options.pending !== undefined) messages.push(new HumanMessage({ content: options.pending.content, id: options.pending.id }))
  return { messages, fromStart: start === 0 }
}
