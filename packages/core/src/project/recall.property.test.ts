import fc from 'fast-check'
import { describe, expect } from 'vitest'
import type { Thread } from '../entries/thread'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { definePolicy } from '../policy/policy'
import { createRecallIndex } from '../recall/recall-index'
import { actionsArbitrary, pendingArbitrary, policyOptionsArbitrary, unitMembers } from '../testing/random-thread'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '../tokens/token-counter'
import { entryFates } from '../views/fates'
import { project } from './project'
import { recallQuery } from '../recall/recall-block'
import { projectionCase, projectionCheck, suiteCounters } from '../testing/projection-properties'
import { segments } from './types'

// Recall and summaries over random threads: the same invariants as every projection (budget,
// exact counts, whole tool units, provider rules, every entry accounted for), plus recall's own.
const SEED = 20261128
const RUNS = 1000

const counters = suiteCounters()

const recallArbitrary = fc.record(
  {
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    maxTokens: fc.integer({ min: 1, max: 5000 }),
    neighbors: fc.integer({ min: 0, max: 3 }),
    queryTurns: fc.integer({ min: 1, max: 3 }),
    dates: fc.boolean(),
  },
  { requiredKeys: [] },
)

const caseArbitrary = fc
  .record({
    actions: actionsArbitrary,
    policy: policyOptionsArbitrary,
    recall: recallArbitrary,
    pending: pendingArbitrary,
    withIndex: fc.nat(9),
    exactCounter: fc.boolean(),
  })
  .map(({ actions, policy, recall, pending, withIndex, exactCounter }) =>
    projectionCase(actions, {
      policy: definePolicy({ ...policy, recall }),
      counter: exactCounter ? counters.exact : counters.heuristic,
      pending,
      // Mostly with an index; sometimes without, where recall must step aside.
      ...(withIndex > 0 ? { recall: createRecallIndex() } : {}),
    }),
  )

const check = projectionCheck(caseArbitrary, { runs: RUNS, seed: SEED })

describe('project with recall: invariants over random threads', () => {
  check('never goes over the budget unless it says overflow; counts are exact, recall block included', ({ input }, result) => {
    const { meta } = result
    const budget = input.policy.maxInputTokens - input.policy.reserveOutputTokens
    if (!meta.overflow) expect(meta.tokens.total).toBeLessThanOrEqual(budget)
    let total = REPLY_PRIMING_TOKENS + meta.tokens.tools
    const bySegment: Record<string, number> = { system: REPLY_PRIMING_TOKENS }
    result.messages.forEach((message, position) => {
      const info = meta.messages[position]
      if (info?.segment === 'recall') expect(info.tokens).toBe(MESSAGE_OVERHEAD_TOKENS + input.counter.count(message.content))
      total += info?.tokens ?? Number.NaN
      bySegment[info?.segment ?? ''] = (bySegment[info?.segment ?? ''] ?? 0) + (info?.tokens ?? 0)
    })
    expect(meta.tokens.total).toBe(total)
    for (const segment of segments) expect(meta.tokens[segment]).toBe(bySegment[segment] ?? 0)
    if (meta.recall !== undefined) {
      expect(meta.recall.tokens).toBe(meta.tokens.recall)
      expect(meta.recall.tokens).toBeLessThanOrEqual(Math.max(0, meta.recall.budget))
      expect(meta.recall.tokens).toBeLessThanOrEqual(input.policy.recall?.maxTokens ?? 0)
    }
  })

  check('recalls whole units older than the window, never what the window sends, and accounts for every entry', ({ thread, input }, result) => {
    const { meta } = result
    const recalled = new Set(meta.recall?.seqs ?? [])
    const included = new Set(meta.includedSeqs)
    const dropped = new Set(
      meta.dropped.flatMap((range) => Array.from({ length: range.toSeq - range.fromSeq + 1 }, (_, offset) => range.fromSeq + offset)),
    )
    const fates = entryFates(meta)
    for (const entry of thread.entries) {
      const seq = entry.seq
      const covered = meta.summary !== undefined && seq >= meta.summary.fromSeq && seq <= meta.summary.toSeq
      const ways = [included.has(seq), recalled.has(seq), dropped.has(seq)].filter(Boolean).length
      expect(
        ways,
        `#${seq}: included ${included.has(seq)}, recalled ${recalled.has(seq)}, dropped ${dropped.has(seq)} ${JSON.stringify(meta.dropped)}`,
      ).toBeLessThanOrEqual(1)
      expect(ways === 1 || covered, `entry #${seq} is sent, recalled, dropped or covered`).toBe(true)
      if (recalled.has(seq)) {
        expect(input.policy.includeKinds).toContain(entry.kind)
        expect(fates.fateOf(seq).state).toBe('recalled')
        // Tool calls come with their results and results with their calls.
        const toolsSent = input.policy.includeKinds.includes('tool_call') && input.policy.includeKinds.includes('tool_result')
        if (toolsSent)
          for (const member of unitMembers(thread, seq).filter((member) => member > thread.index.resetSeq))
            expect(recalled.has(member), `#${member} recalled with #${seq}`).toBe(true)
      }
    }
    // Recalled entries are older than every unpinned entry of the window, the latest user message included.
    const pinned = new Set(meta.pinnedSeqs)
    const windowStart = Math.min(...meta.includedSeqs.filter((seq) => !pinned.has(seq) && thread.bySeq(seq)?.kind !== 'summary'))
    for (const seq of recalled) expect(seq).toBeLessThan(windowStart)
    for (const hit of meta.recall?.hits ?? []) expect(recalled.has(hit.seq), `hit #${hit.seq} sent`).toBe(true)
  })

  check('sends the recall block once, last, and requests every provider accepts', (_testCase, result) => {
    const infos = result.meta.messages
    const positions = infos.flatMap((info, position) => (info.segment === 'recall' ? [position] : []))
    expect(positions.length).toBeLessThanOrEqual(1)
    expect(positions.length === 1).toBe((result.meta.recall?.seqs.length ?? 0) > 0)
    // Last: chosen for this question, it is never inside a prefix a later call repeats.
    if (positions[0] !== undefined) expect(positions[0]).toBe(infos.length - 1)
    const order = infos.map((info) => segments.indexOf(info.segment))
    for (let position = 1; position < order.length; position++) expect(order[position]).toBeGreaterThanOrEqual(order[position - 1] as number)
    expect(openAIChatProblems(toOpenAIChat(result))).toEqual([])
    const conversation = result.messages.some(
      (message) =>
        message.role !== 'system' &&
        (message.content.trim() !== '' || message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0)),
    )
    const problems = anthropicMessagesProblems(toAnthropicMessages(result))
    expect(conversation ? problems : problems.filter((problem) => problem !== 'messages: must not be empty')).toEqual([])
  })

  check('steps aside without an index or a query, its share going to the window', ({ thread, input }, result) => {
    const recall = result.meta.recall
    expect(recall).toBeDefined()
    if (input.recall === undefined) expect(recall?.skipped).toBe('no-index')
    if (recall?.skipped === undefined) return
    expect(recall.seqs).toEqual([])
    expect(result.meta.tokens.recall).toBe(0)
    // The same as the policy without recall.
    const plain = project({ ...input, policy: definePolicy({ ...input.policy, recall: undefined }) })
    expect(result.meta.includedSeqs).toEqual(plain.meta.includedSeqs)
    expect(JSON.stringify(result.messages)).toBe(JSON.stringify(plain.messages))
    expect(thread.entries.length).toBeGreaterThanOrEqual(0)
  })

  check('is deterministic: the same input and index give byte-identical output', ({ input }, result) => {
    expect(JSON.stringify(project(input))).toBe(JSON.stringify(result))
  })

  check('searches for what recallQuery says (what a hybrid index must prepare)', ({ input }, result) => {
    if (input.recall === undefined) return
    expect([...new Set(input.recall.terms(recallQuery(input)))].sort()).toEqual(result.meta.recall?.query)
  })
})

describe('summaries stand in only for what does not fit', () => {
  check('a summary is sent only when the policy without summaries leaves out an entry it covers', ({ input }, result) => {
    if (!result.meta.summaryUsed) return
    const summary = result.meta.summary as NonNullable<typeof result.meta.summary>
    const withoutSummaries = project({
      ...input,
      policy: definePolicy({ ...input.policy, recall: undefined, includeKinds: input.policy.includeKinds.filter((kind) => kind !== 'summary') }),
    })
    const sent = new Set(withoutSummaries.meta.includedSeqs)
    const coveredKinds = (seq: number): boolean => {
      const entry = (input.thread as Thread).bySeq(seq)
      return entry !== undefined && entry.kind !== 'context_op' && entry.kind !== 'summary' && input.policy.includeKinds.includes(entry.kind)
    }
    const left = Array.from({ length: summary.toSeq - summary.fromSeq + 1 }, (_, offset) => summary.fromSeq + offset).filter(
      (seq) => coveredKinds(seq) && !sent.has(seq),
    )
    expect(left.length).toBeGreaterThan(0)
  })
})
