import fc from 'fast-check'
import { toolArgumentsText } from '../entries/entry-text'
import { beforeAll, describe, expect } from 'vitest'
import { type ContentPart, partsText } from '../entries/content-parts'
import type { Entry, MessageEntry } from '../entries/entry'
import type { Thread } from '../entries/thread'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { definePolicy } from '../policy/policy'
import { type Action, actionsArbitrary, policyOptionsArbitrary, sampleTools, textArbitrary } from '../testing/random-thread'
import { attachmentTokens, imageTokens } from '../parts/attachment-tokens'
import { createTokenCounter, messageTokens, REPLY_PRIMING_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { turnWindowFloor } from './turns'
import { project } from './project'
import { projectionCase, projectionCheck, type ProjectionCase } from '../testing/projection-properties'
import type { PendingMessage, ProjectedMessage, ProjectInput } from './types'

// The projector's invariants on threads whose user messages carry images and files.
const SEED = 20261123
const RUNS = 400

let heuristic: TokenCounter
beforeAll(async () => {
  heuristic = await createTokenCounter('heuristic')
})

const imageArbitrary: fc.Arbitrary<ContentPart> = fc
  .record({
    url: fc.constantFrom('https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=', 'data:image/jpeg;base64,/9j/4AAQ'),
    size: fc.option(fc.record({ width: fc.integer({ min: 1, max: 9000 }), height: fc.integer({ min: 1, max: 9000 }) }), { nil: undefined }),
    detail: fc.option(fc.constantFrom('auto' as const, 'low' as const, 'high' as const), { nil: undefined }),
  })
  .map(({ url, size, detail }) => ({ type: 'image', source: { type: 'url', url }, ...(size ?? {}), ...(detail === undefined ? {} : { detail }) }))

const fileArbitrary: fc.Arbitrary<ContentPart> = fc
  .record({
    url: fc.constantFrom('data:application/pdf;base64,JVBERi0xLjQ=', 'data:text/plain;base64,aGVsbG8=', 'https://example.com/report.pdf'),
    pages: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  })
  .map(({ url, pages }) => ({ type: 'file', source: { type: 'url', url }, filename: 'report.pdf', ...(pages === undefined ? {} : { pages }) }))

const partsArbitrary: fc.Arbitrary<ContentPart[]> = fc.array(
  fc.oneof(
    { weight: 2, arbitrary: textArbitrary.map((text): ContentPart => ({ type: 'text', text })) },
    { weight: 3, arbitrary: imageArbitrary },
    { weight: 1, arbitrary: fileArbitrary },
  ),
  { minLength: 1, maxLength: 4 },
)

// Some user messages get parts (the rest of the thread is the shared random thread).
const actionsWithPartsArbitrary = fc
  .tuple(actionsArbitrary, fc.infiniteStream(fc.option(partsArbitrary, { freq: 2, nil: undefined })))
  .map(([actions, media]) =>
    actions.map((action): Action => {
      if (action.type !== 'user') return action
      const parts = media.next().value as ContentPart[] | undefined
      return parts === undefined ? action : { type: 'user', content: partsText(parts), parts }
    }),
  )

const pendingWithPartsArbitrary: fc.Arbitrary<PendingMessage[]> = fc.array(
  fc.oneof(
    fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), content: textArbitrary }),
    partsArbitrary.map((parts): PendingMessage => ({ role: 'user', content: partsText(parts), parts })),
  ),
  { maxLength: 2 },
)

const caseArbitrary = fc
  .record({
    actions: actionsWithPartsArbitrary,
    policy: policyOptionsArbitrary,
    // Budgets big enough for images to fit sometimes, small enough to force drops.
    budgetScale: fc.integer({ min: 1, max: 20 }),
    keepImagesTurns: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    pending: pendingWithPartsArbitrary,
    withTools: fc.boolean(),
  })
  .map(({ actions, policy, budgetScale, keepImagesTurns, pending, withTools }): ProjectionCase => {
    const maxInputTokens = (policy.maxInputTokens ?? 1000) * budgetScale
    const reserveOutputTokens = Math.floor(((policy.reserveOutputTokens ?? 0) / (policy.maxInputTokens ?? 1000)) * maxInputTokens)
    return projectionCase(actions, {
      policy: definePolicy({ ...policy, maxInputTokens, reserveOutputTokens, ...(keepImagesTurns === undefined ? {} : { keepImagesTurns }) }),
      counter: heuristic,
      pending,
      ...(withTools ? { tools: sampleTools } : {}),
    })
  })

const check = projectionCheck(caseArbitrary, { runs: RUNS, seed: SEED, what: 'random threads with images and files' })

/** A projected message's tokens recounted from scratch: text, name, refusal, parts, tool calls. */
function recount(message: ProjectedMessage, counter: TokenCounter): number {
  if (message.role === 'tool') return messageTokens({ content: message.content }, (text) => counter.count(text))
  let tokens = messageTokens(message, (text) => counter.count(text))
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? [])
      tokens += TOOL_CALL_OVERHEAD_TOKENS + counter.count(call.name) + counter.count(toolArgumentsText(call))
  }
  return tokens
}

function latestUser(thread: Thread, input: ProjectInput): MessageEntry | undefined {
  if (!input.policy.includeKinds.includes('message')) return undefined
  const last = thread.index.userSeqs.at(-1)
  if (last === undefined || last <= thread.index.resetSeq) return undefined
  return thread.bySeq(last) as MessageEntry
}

describe('project: threads with images and files', () => {
  check(
    'never goes over the budget because of images or files, and says overflow exactly when the mandatory part is too big',
    ({ thread, input }, result) => {
      const budget = input.policy.maxInputTokens - input.policy.reserveOutputTokens
      if (!result.meta.overflow) expect(result.meta.tokens.total).toBeLessThanOrEqual(budget)
      const pending = input.pending ?? []
      let mandatory = REPLY_PRIMING_TOKENS + (input.tools === undefined ? 0 : input.counter.countTools(input.tools))
      if (input.policy.systemPrompt !== undefined)
        mandatory += messageTokens({ content: input.policy.systemPrompt }, (text) => input.counter.count(text))
      for (const message of pending) mandatory += messageTokens(message, (text) => input.counter.count(text))
      const anchor = latestUser(thread, input)
      if (!pending.some((message) => message.role === 'user') && anchor !== undefined) {
        // The latest user message always keeps its images (it is in the newest turn).
        mandatory += input.counter.countEntry(anchor)
      }
      expect(result.meta.overflow).toBe(mandatory > budget)
    },
  )

  check('counts every message with its parts, and the attachments share is the images and files sent', ({ input }, result) => {
    let attachments = 0
    result.messages.forEach((message, position) => {
      const info = result.meta.messages[position]
      if (info === undefined) throw new Error('missing message info')
      expect(info.tokens).toBe(recount(message, input.counter))
      const sent = message.role === 'tool' ? 0 : attachmentTokens(message.parts)
      expect(info.attachmentTokens ?? 0).toBe(sent)
      attachments += sent
    })
    expect(result.meta.tokens.attachments).toBe(attachments)
  })

  check('leaves images out only before the newest keepImagesTurns turns, never of pinned messages, and says which', ({ thread, input }, result) => {
    const pendingHasUser = (input.pending ?? []).some((message) => message.role === 'user')
    const visibleFrom = Math.max(thread.entries[0]?.seq ?? 0, thread.index.resetSeq + 1)
    const floor =
      input.policy.keepImagesTurns === undefined
        ? Number.NEGATIVE_INFINITY
        : turnWindowFloor(input.policy.keepImagesTurns, thread.index.userSeqs, visibleFrom, pendingHasUser)
    result.messages.forEach((message, position) => {
      const info = result.meta.messages[position]
      if (info === undefined || info.segment !== 'history' || message.role === 'tool') return
      if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return
      const seq = info.seqs[0] as number
      const entry = thread.bySeq(seq) as Entry
      if (entry.kind !== 'message') return
      const stored = entry.payload.parts ?? []
      const images = stored.flatMap((part, index) => (part.type === 'image' ? [index] : []))
      const omitted = seq < floor && !thread.index.pinnedSeqs.has(seq) ? images : []
      expect(info.omittedImages ?? []).toEqual(omitted)
      expect((message.parts ?? []).filter((part) => part.type === 'image')).toHaveLength(images.length - omitted.length)
      // Saved tokens are what the omitted images would have cost.
      const saved = omitted.reduce((sum, index) => sum + 1 + imageTokens(stored[index] as Extract<ContentPart, { type: 'image' }>), 0)
      expect(info.tokens).toBe(input.counter.countEntry(entry) - saved)
    })
  })

  check('gives requests both providers accept, parts in place', (_testCase, result) => {
    const openAI = toOpenAIChat(result)
    expect(openAIChatProblems(openAI)).toEqual([])
    // With nothing but system text and empty messages there is no conversation: Anthropic needs one message (as in project.property.test.ts).
    const conversation = result.messages.some(
      (message) =>
        message.role === 'tool' ||
        (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) ||
        (message.role !== 'system' && (message.content.trim() !== '' || (message.parts ?? []).some((part) => part.type !== 'text'))),
    )
    const problems = anthropicMessagesProblems(toAnthropicMessages(result))
    if (conversation) expect(problems).toEqual([])
    else expect(problems).toEqual(['messages: must not be empty'])
    // Each user message's parts go out in their order, one OpenAI part per stored part.
    result.messages.forEach((message, position) => {
      const sent = openAI[position]
      if (message.role === 'user' && message.parts !== undefined) {
        expect(sent?.content).toHaveLength(message.parts.length)
        message.parts.forEach((part, index) => {
          const wire = (sent!.content as { type: string }[])[index]
          // Chat Completions takes only PDF files inline: other files go as text (their text, or a note).
          expect(wire?.type).toBe(
            part.type === 'text'
              ? 'text'
              : part.type === 'image'
                ? 'image_url'
                : part.source.type === 'url' && part.source.url.startsWith('data:application/pdf')
                  ? 'file'
                  : 'text',
          )
        })
      }
    })
  })

  check('is deterministic with parts: same input, byte-identical output', ({ input }, result) => {
    expect(JSON.stringify(project(input))).toBe(JSON.stringify(result))
  })
})
