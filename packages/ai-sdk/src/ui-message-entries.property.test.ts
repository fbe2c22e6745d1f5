import fc from 'fast-check'
import { createThread, createTokenCounter, definePolicy, type TokenCounter } from '@threadlens/core'
import { generateText, jsonSchema, modelMessageSchema, tool, type ModelMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { beforeAll, describe, expect, it } from 'vitest'
import { projectModelMessages } from './model-messages'
import { withApprovalResponses } from './tool-approvals'
import { uiConversationArbitrary } from './testing/random-ui-messages'
import { entriesToUIMessages, uiMessageToEntryInputs } from './ui-message-entries'

// A fixed seed checks the same conversations on every run; fast-check prints the counterexample.
const SEED = 20261123
const RUNS = 300

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

function threadOf(messages: Parameters<typeof uiMessageToEntryInputs>[0][]) {
  const thread = createThread({ id: 'random', now: () => 0 })
  thread.appendMany(messages.flatMap((message) => uiMessageToEntryInputs(message)))
  return thread
}

/** Provider rules the core formats are held to, in AI SDK shape: every problem found, as text. */
function modelMessageProblems(messages: readonly ModelMessage[]): string[] {
  const problems: string[] = []
  let open: Map<string, number> | undefined
  const approvals = new Map<string, string>()
  const close = (index: number): void => {
    for (const [id, at] of open ?? []) problems.push(`messages[${at}]: tool call ${id} is not answered before messages[${index}]`)
    open = undefined
  }
  messages.forEach((message, index) => {
    const parsed = modelMessageSchema.safeParse(message)
    if (!parsed.success) problems.push(`messages[${index}]: ${parsed.error.message}`)
    if (message.role !== 'tool') close(index)
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const calls = message.content.filter((part) => part.type === 'tool-call')
      if (calls.length > 0) open = new Map(calls.map((part) => [part.toolCallId, index]))
      for (const part of message.content) if (part.type === 'tool-approval-request') approvals.set(part.approvalId, part.toolCallId)
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        // an approved call is answered by streamText, which runs it before asking the model
        if (part.type === 'tool-approval-response' && part.approved) {
          if (open?.delete(approvals.get(part.approvalId) ?? '') !== true)
            problems.push(`messages[${index}]: approval ${part.approvalId} answers no open call`)
        }
        if (part.type !== 'tool-result') continue
        if (open?.delete(part.toolCallId) !== true) problems.push(`messages[${index}]: result for ${part.toolCallId} answers no open call`)
      }
    }
  })
  close(messages.length)
  return problems
}

describe('UI messages through a thread', () => {
  it('the provider-rule check finds unanswered calls, stray results and schema errors', () => {
    const call: ModelMessage = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'x', input: {} }] }
    const result: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'x', output: { type: 'text', value: '1' } }],
    }
    expect(modelMessageProblems([call, result])).toEqual([])
    expect(modelMessageProblems([call, { role: 'user', content: 'hi' }, result])).toHaveLength(2)
    expect(modelMessageProblems([{ role: 'robot', content: 1 } as unknown as ModelMessage])).toHaveLength(1)
  })

  it(`come back unchanged (${RUNS} random conversations, seed ${SEED})`, () => {
    fc.assert(
      fc.property(uiConversationArbitrary, (messages) => {
        const thread = threadOf(messages)
        expect(entriesToUIMessages(thread.entries)).toEqual(messages)
        // and once more from the stored JSON, as a reload reads it
        expect(entriesToUIMessages(JSON.parse(JSON.stringify(thread.entries)))).toEqual(messages)
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it(`project to model messages that pass the AI SDK schema, pair every tool call with its result, keep order and fit the budget (${RUNS} random conversations, seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        uiConversationArbitrary,
        fc.record({
          maxInputTokens: fc.integer({ min: 200, max: 4000 }),
          unresolvedToolCalls: fc.constantFrom('drop' as const, 'interrupt' as const),
          keepLastTurns: fc.integer({ min: 0, max: 3 }),
        }),
        (messages, options) => {
          const thread = threadOf(messages)
          const policy = definePolicy({ ...options, reserveOutputTokens: 100, systemPrompt: 'You are terse.' })
          const projected = projectModelMessages({ thread, policy, counter })
          const { instructions, projection } = projected
          // what the transports send: the last message's answered approvals go last, for streamText to act on
          const rest = withApprovalResponses(projected.messages, messages.at(-1))
          // streamText refuses system messages in `messages`: they all lead, and go to `instructions`
          expect(rest.some((message) => message.role === 'system')).toBe(false)
          const model = [...(instructions ?? []), ...rest]
          expect(modelMessageProblems(model)).toEqual([])
          // chronology: the entries sent are in thread order, and so are the messages built from them
          const seqs = projection.meta.messages.flatMap((info) => info.seqs)
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
          // budget: never over, unless the result says overflow
          if (!projection.meta.overflow) expect(projection.meta.tokens.total).toBeLessThanOrEqual(projection.meta.budget.input)
          // the latest user message is always sent
          const lastUser = [...thread.entries].reverse().find((entry) => entry.kind === 'message' && entry.payload.role === 'user')
          if (lastUser !== undefined) expect(projection.meta.includedSeqs).toContain(lastUser.seq)
          // nothing the UI keeps for itself (reasoning) reaches the model as text
          for (const message of messages) {
            for (const part of message.parts) {
              if (part.type === 'reasoning' && part.text.length > 12)
                expect(JSON.stringify(model)).not.toContain(JSON.stringify(part.text).slice(1, -1))
            }
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it(`and the AI SDK's generateText accepts what the transports send (100 random conversations, seed ${SEED})`, async () => {
    // every tool the random conversations call, asking for approval as theirs do; a model that fetches any URL itself
    const anyTool = tool({
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      needsApproval: true,
      execute: async () => ({ ok: true }),
    })
    const tools = { weather: anyTool, search: anyTool, read_file: anyTool }
    const finish = { unified: 'stop' as const, raw: 'stop' }
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    }
    await fc.assert(
      fc.asyncProperty(uiConversationArbitrary, async (messages) => {
        const model = new MockLanguageModelV4({
          supportedUrls: { '*/*': [/.*/] },
          doGenerate: async () => ({ content: [{ type: 'text', text: 'ok' }], finishReason: finish, usage, warnings: [] }),
        })
        const projected = projectModelMessages({ thread: threadOf(messages), policy: definePolicy({ systemPrompt: 'Be brief.' }), counter })
        const sent = withApprovalResponses(projected.messages, messages.at(-1))
        const result = await generateText({
          model,
          ...(projected.instructions === undefined ? {} : { instructions: projected.instructions }),
          messages: sent,
          tools,
        })
        expect(result.text).toBe('ok')
        expect(model.doGenerateCalls).toHaveLength(1)
      }),
      { numRuns: 100, seed: SEED },
    )
  })
})
