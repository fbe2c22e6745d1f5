import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter } from '../tokens/token-counter'
import { toAnthropicMessages } from './anthropic-messages'
import { fromOpenAIChat, originalToolCallIds, type ImportChange } from '../import/from-openai-chat'
import { toOpenAIChat } from './openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from './provider-rules'

// Real recorded conversations (fixtures/recorded, with their source and licence in NOTICE.md) must
// import, project and come back as they were, but for the changes the import reports.

interface Recorded {
  readonly name: string
  readonly messages: readonly Record<string, unknown>[]
}

function fixture(file: string, name: (conversation: Record<string, unknown>) => string): Recorded[] {
  const conversations = JSON.parse(readFileSync(new URL(`./fixtures/recorded/${file}`, import.meta.url), 'utf8')) as (Record<string, unknown> & {
    messages: Record<string, unknown>[]
  })[]
  return conversations.map((conversation) => ({ name: name(conversation), messages: conversation.messages }))
}

const tau = (conversation: Record<string, unknown>): string =>
  `tau-bench task ${String(conversation['task_id'])}${conversation['trial'] === undefined ? '' : ` trial ${String(conversation['trial'])}`}`
const cases: readonly { readonly recorded: Recorded; readonly changes: readonly ImportChange['kind'][] }[] = [
  // GPT-4o reuses a call id in a later turn in each of these: renamed, and reported.
  ...fixture('tau-bench-gpt-4o-airline.json', tau).map((recorded) => ({ recorded, changes: ['tool-call-id-renamed'] as const })),
  ...fixture('tau-bench-gpt-4o-airline-distinct-ids.json', tau).map((recorded) => ({ recorded, changes: [] })),
  // The OpenAI SDK records a call without arguments as arguments "".
  ...fixture('openai-node-run-tools.json', (conversation) => `openai-node "${String(conversation['test'])}"`).map((recorded) => ({
    recorded,
    changes: recorded.messages.some((message) =>
      (message['tool_calls'] as { function: { arguments: string } }[] | undefined)?.some((call) => call.function.arguments === ''),
    )
      ? (['empty-arguments'] as const)
      : [],
  })),
]

type Rename = (index: number, field: string, value: string) => string

/** What a Chat Completions message says, key order and ignored fields aside; ids and arguments through `changed`. */
function said(message: Record<string, unknown>, changed: Rename, index: number): unknown {
  const calls = (message['tool_calls'] as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? []
  return {
    role: message['role'],
    content: message['content'] === '' && calls.length > 0 ? null : (message['content'] ?? null),
    calls: calls.map((call, callIndex) => ({
      id: changed(index, `tool_calls.${callIndex}.id`, call.id),
      name: call.function.name,
      // The text as it was sent, byte for byte (or as the import reports it changed).
      arguments: changed(index, `tool_calls.${callIndex}.function.arguments`, call.function.arguments),
    })),
    answers: message['tool_call_id'] === undefined ? undefined : changed(index, 'tool_call_id', message['tool_call_id'] as string),
  }
}

describe('recorded conversations', () => {
  it.each(cases.map(({ recorded, changes }) => [recorded.name, recorded, changes] as const))(
    '%s imports, projects for both providers and comes back as recorded, but for the changes reported',
    async (_name, recorded, expectedChanges) => {
      const { systemPrompt, entries, changes } = fromOpenAIChat(recorded.messages)
      expect(new Set(changes.map((change) => change.kind))).toEqual(new Set(expectedChanges))
      const thread = createThread({ id: 'recorded' })
      thread.appendMany(entries)
      const counter = await createTokenCounter('o200k_base')
      const prompt = systemPrompt === undefined ? {} : { systemPrompt }
      const result = project({ thread, policy: definePolicy({ maxInputTokens: 200_000, reserveOutputTokens: 0, ...prompt }), counter })
      expect(result.meta.dropped).toEqual([])
      const openAI = toOpenAIChat(result)
      expect(openAIChatProblems(openAI)).toEqual([])
      expect(anthropicMessagesProblems(toAnthropicMessages(result))).toEqual([])

      const byField = new Map(changes.map((change) => [`${change.index}\u0000${change.field}`, change.to]))
      const asImported: Rename = (index, field, value) => byField.get(`${index}\u0000${field}`) ?? value
      const asSent: Rename = (_index, _field, value) => value
      expect(openAI.map((message, index) => said(message as unknown as Record<string, unknown>, asSent, index))).toEqual(
        recorded.messages.map((message, index) => said(message, asImported, index)),
      )
      // With the ids the recording used (kept in meta), the calls and results come back with those ids too.
      const restored = toOpenAIChat(result, { toolCallIds: originalToolCallIds(thread.entries) })
      expect(openAIChatProblems(restored)).toEqual([])
      const argumentsChanged: Rename = (index, field, value) => (field.endsWith('.arguments') ? asImported(index, field, value) : value)
      expect(restored.map((message, index) => said(message as unknown as Record<string, unknown>, asSent, index))).toEqual(
        recorded.messages.map((message, index) => said(message, argumentsChanged, index)),
      )

      // Under a budget that holds only part of it: within the budget, and still a request both providers take.
      const tight = definePolicy({ maxInputTokens: Math.max(2_000, Math.floor(result.meta.tokens.total / 2)), reserveOutputTokens: 500, ...prompt })
      const partial = project({ thread, policy: tight, counter })
      if (!partial.meta.overflow) expect(partial.meta.tokens.total).toBeLessThanOrEqual(tight.maxInputTokens - tight.reserveOutputTokens)
      expect(openAIChatProblems(toOpenAIChat(partial))).toEqual([])
      expect(anthropicMessagesProblems(toAnthropicMessages(partial))).toEqual([])
    },
  )

  it('keeps the ids the recording used in meta, so each renamed call and result can be traced back', () => {
    for (const { recorded } of cases) {
      const { entries, changes } = fromOpenAIChat(recorded.messages)
      const renamed = entries.filter((entry) => entry.meta?.originalToolCallId !== undefined)
      expect(renamed.length).toBe(changes.filter((change) => change.kind === 'tool-call-id-renamed').length)
      for (const entry of renamed) expect(entry.refs?.toolCallId?.startsWith(`${entry.meta?.originalToolCallId ?? ''}~`)).toBe(true)
    }
  })
})
