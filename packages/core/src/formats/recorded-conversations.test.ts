import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { toAnthropicMessages } from './anthropic-messages'
import { fromOpenAIChat } from './from-openai-chat'
import { toOpenAIChat } from './openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from './provider-rules'

// Real recorded conversations (fixtures/recorded, with their source and licence) must import,
// project and come back as they were, but for the changes the import reports.

interface Recorded {
  readonly task_id: number
  readonly messages: readonly Record<string, unknown>[]
}

const recorded = JSON.parse(readFileSync(new URL('./fixtures/recorded/tau-bench-gpt-4o-airline.json', import.meta.url), 'utf8')) as Recorded[]

/** What a Chat Completions message says, keys and ignored fields aside; call ids through `rename`. */
function said(message: Record<string, unknown>, rename: (index: number, field: string, id: string) => string, index: number): unknown {
  const calls = (message['tool_calls'] as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? []
  return {
    role: message['role'],
    content: message['content'] === '' && calls.length > 0 ? null : (message['content'] ?? null),
    calls: calls.map((call, callIndex) => ({ id: rename(index, `tool_calls.${callIndex}.id`, call.id), name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown })),
    answers: message['tool_call_id'] === undefined ? undefined : rename(index, 'tool_call_id', message['tool_call_id'] as string),
  }
}

describe('recorded conversations (tau-bench, GPT-4o)', () => {
  it.each(recorded.map((conversation) => [conversation.task_id, conversation] as const))('task %i imports, projects for both providers and comes back as recorded, ids renamed as reported', async (_task, conversation) => {
    const { systemPrompt, entries, changes } = fromOpenAIChat(conversation.messages)
    // GPT-4o reused call ids: each reuse is renamed, and reported, and nothing else is changed.
    expect(changes.length).toBeGreaterThan(0)
    expect(new Set(changes.map((change) => change.kind))).toEqual(new Set(['tool-call-id-renamed']))
    const thread = createThread({ id: `tau-${conversation.task_id}` })
    for (const entry of entries) thread.append(entry)
    const counter = await createTokenCounter('o200k_base')
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 200_000, reserveOutputTokens: 0, ...(systemPrompt === undefined ? {} : { systemPrompt }) }), counter })
    expect(result.meta.dropped).toEqual([])
    const openAI = toOpenAIChat(result)
    expect(openAIChatProblems(openAI)).toEqual([])
    expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])

    const renamed = new Map(changes.map((change) => [`${change.index}\u0000${change.field}`, change.to]))
    const rename = (index: number, field: string, id: string): string => renamed.get(`${index}\u0000${field}`) ?? id
    const keep = (_index: number, _field: string, id: string): string => id
    expect(openAI.map((message, index) => said(message as unknown as Record<string, unknown>, keep, index))).toEqual(conversation.messages.map((message, index) => said(message, rename, index)))
  })
})
