import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages, type ToolCall } from '@langchain/core/messages'
import type { TrimMessagesFields } from '@langchain/core/messages'
import { type Entry } from '../src/index'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, toolResultText } from '../src/internal/index'
import type { PairingItem } from './orphans'

/**
 * The thread as LangChain messages, built once outside any timing: one AIMessage per model call
 * (its text, if any, carrying its tool calls), one ToolMessage per result. Every message gets the
 * entry's id, which is what the warm token cache is keyed by (see `createMessageCounter`).
 */
export function toLangChainMessages(entries: readonly Entry[], systemPrompt: string): BaseMessage[] {
  type Draft = BaseMessage | { readonly id: string; content: string; readonly toolCalls: ToolCall[] }
  const drafts: Draft[] = [new SystemMessage({ content: systemPrompt, id: 'system' })]
  const openCalls = new Map<string, { readonly id: string; content: string; readonly toolCalls: ToolCall[] }>()
  for (const entry of entries) {
    if (entry.kind === 'message') {
      const { role, content } = entry.payload
      const callId = entry.refs.callId
      if (role === 'assistant' && callId !== undefined) {
        const draft = { id: entry.id, content, toolCalls: [] }
        openCalls.set(callId, draft)
        drafts.push(draft)
      } else if (role === 'user') drafts.push(new HumanMessage({ content, id: entry.id }))
      else if (role === 'assistant') drafts.push(new AIMessage({ content, id: entry.id }))
      else drafts.push(new SystemMessage({ content, id: entry.id }))
    } else if (entry.kind === 'tool_call') {
      const callId = entry.refs.callId ?? entry.id
      let draft = openCalls.get(callId)
      if (draft === undefined) {
        draft = { id: entry.id, content: '', toolCalls: [] }
        openCalls.set(callId, draft)
        drafts.push(draft)
      }
      draft.toolCalls.push({ id: entry.refs.toolCallId as string, name: entry.payload.name, args: entry.payload.arguments, type: 'tool_call' })
    } else if (entry.kind === 'tool_result') {
      drafts.push(
        new ToolMessage({
          content: toolResultText(entry.payload),
          tool_call_id: entry.refs.toolCallId as string,
          name: entry.payload.name,
          id: entry.id,
        }),
      )
    }
  }
  return drafts.map((draft) =>
    'toolCalls' in draft
      ? draft.toolCalls.length === 0
        ? new AIMessage({ content: draft.content, id: draft.id })
        : new AIMessage({ content: draft.content, id: draft.id, tool_calls: draft.toolCalls })
      : draft,
  )
}

/** A message's tokens under threadlens's accounting, so both sides fill the same budget the same way. */
function messageTokens(message: BaseMessage, count: (text: string) => number): number {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content)
  let tokens = MESSAGE_OVERHEAD_TOKENS + count(content)
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) tokens += TOOL_CALL_OVERHEAD_TOKENS + count(call.name) + count(JSON.stringify(call.args))
  }
  return tokens
}

/**
 * trimMessages's `tokenCounter` takes the whole candidate list on every probe, so without a cache it
 * would re-tokenize everything each time. This one counts each message once. It is keyed by message
 * id, not by object: trimMessages clones every message at the start of each call, so a
 * WeakMap<BaseMessage, number> would start empty on every call and "warm" would mean nothing.
 */
export function createMessageCounter(count: (text: string) => number): {
  readonly tokenCounter: (messages: BaseMessage[]) => number
  readonly cache: Map<string, number>
} {
  const cache = new Map<string, number>()
  const tokensOf = (message: BaseMessage): number => {
    const id = message.id as string
    let tokens = cache.get(id)
    if (tokens === undefined) {
      tokens = messageTokens(message, count)
      cache.set(id, tokens)
    }
    return tokens
  }
  const tokenCounter = (messages: BaseMessage[]): number => {
    let total = REPLY_PRIMING_TOKENS
    for (const message of messages) total += tokensOf(message)
    return total
  }
  return { tokenCounter, cache }
}

/**
 * The closest equivalent of a threadlens projection under a token budget:
 * - `strategy: 'last'`: keep the newest messages that fit, as the projector does.
 * - `maxTokens`: the same input budget (maxInputTokens − reserveOutputTokens), counted by the same rules.
 * - `includeSystem: true`: the system prompt at index 0 is always kept, like `policy.systemPrompt`.
 * - `allowPartial: false`: threadlens never cuts a message in half.
 * - no `startOn`: threadlens does not force the window to open on a user turn, it keeps every newest
 *   unit that fits. LangChain suggests `startOn: 'human'` to avoid a leading ToolMessage; that drops
 *   back to the oldest kept human message, i.e. fewer messages than the budget allows. We leave it off
 *   in the timed runs and count the orphans it leaves; `startOnHuman` reports that variant separately.
 */
export function trimOptions(budget: number, tokenCounter: (messages: BaseMessage[]) => number, startOnHuman = false): TrimMessagesFields {
  return {
    maxTokens: budget,
    strategy: 'last',
    tokenCounter,
    includeSystem: true,
    allowPartial: false,
    ...(startOnHuman ? { startOn: 'human' as const } : {}),
  }
}

export function trim(messages: BaseMessage[], options: TrimMessagesFields): Promise<BaseMessage[]> {
  return trimMessages(messages, options)
}

export function langchainPairing(message: BaseMessage): PairingItem {
  if (ToolMessage.isInstance(message)) return { answers: message.tool_call_id }
  if (AIMessage.isInstance(message) && message.tool_calls !== undefined && message.tool_calls.length > 0) {
    return { toolCallIds: message.tool_calls.map((call) => call.id as string) }
  }
  return null
}
