import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Entry } from '../entries/entry'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { actionsArbitrary, buildThread, policyOptionsArbitrary } from '../testing/random-thread'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { compact, planCompaction } from './compact'
import { extractiveSummarizer } from './extractive-summarizer'
import type { SummarizeInput, Summarizer } from './summarizer'

// Fixed seed: every run checks the same threads; fast-check prints the seed and path on failure.
const SEED = 20261122
const RUNS = 1000

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

/** The extractive summarizer, recording what it was given. */
function recording(): Summarizer & { inputs: SummarizeInput[] } {
  const inner = extractiveSummarizer()
  const inputs: SummarizeInput[] = []
  return { name: 'recording', inputs, summarize: (input) => (inputs.push(input), inner.summarize(input)) }
}

const failing: Summarizer[] = [
  { name: 'throws', summarize: () => Promise.reject(new Error('503 Service Unavailable')) },
  { name: 'empty', summarize: () => Promise.resolve('') },
  { name: 'huge', summarize: () => Promise.resolve('lorem ipsum '.repeat(4000)) },
]

const caseArbitrary = fc.record({
  actions: actionsArbitrary,
  policy: policyOptionsArbitrary,
  rounds: fc.integer({ min: 1, max: 3 }),
  failure: fc.option(fc.integer({ min: 0, max: failing.length - 1 }), { nil: undefined, freq: 4 }),
})

describe('compaction: invariants over random threads', () => {
  it(`appends only, never summarizes pinned, protected or unresolved entries, never splits a tool unit, keeps the task framing (${RUNS} threads, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ actions, policy: options, rounds, failure }) => {
        const thread = buildThread(actions)
        const policy = definePolicy(options)
        for (let round = 0; round < rounds; round++) {
          const before = JSON.stringify(thread.entries)
          const plan = planCompaction(thread, policy)
          const summarizer = failure === undefined ? recording() : (failing[failure] as Summarizer)
          const result = await compact({ thread, policy, counter, summarizer, maxSummaryTokens: 300 })
          expect(JSON.stringify(thread.entries)).toBe(before)
          if (plan === undefined) {
            expect(result.status).toBe('nothing-to-do')
            break
          }
          if (failure !== undefined) {
            expect(result.status).toBe('failed')
            expect(result.entries).toHaveLength(1)
            expect(result.entries[0]).toMatchObject({ kind: 'context_op', payload: { op: 'compaction-failed' } })
            thread.appendMany(result.entries)
            break
          }
          expect(result.status).toBe('summarized')
          const given = (summarizer as ReturnType<typeof recording>).inputs.at(-1)?.entries ?? []
          checkPlan(thread.entries, thread.index.pinnedSeqs, policy.keepLastTurns, plan.fromSeq, plan.toSeq, given)
          thread.appendMany(result.entries)
          checkTaskFraming(thread.entries, thread.index.pinnedSeqs)
          // Some new turns, so the next round has something to compact.
          thread.append({ kind: 'message', payload: { role: 'user', content: `round ${round}` } })
          thread.append({ kind: 'message', payload: { role: 'assistant', content: `reply ${round}` } })
        }
        checkProjection(thread.entries, options)
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })
})

function checkPlan(
  entries: readonly Entry[],
  pinned: ReadonlySet<number>,
  keepLastTurns: number,
  fromSeq: number,
  toSeq: number,
  given: readonly Entry[],
): void {
  const bySeq = (seq: number): Entry => entries[seq] as Entry
  const resetSeq = Math.max(-1, ...entries.filter((entry) => entry.kind === 'context_op' && entry.payload.op === 'reset').map((entry) => entry.seq))
  const userSeqs = entries
    .filter((entry) => entry.seq > resetSeq && entry.kind === 'message' && entry.payload.role === 'user')
    .map((entry) => entry.seq)
  const protectedFrom = keepLastTurns === 0 ? Number.POSITIVE_INFINITY : (userSeqs[userSeqs.length - keepLastTurns] as number)
  expect(toSeq).toBeLessThan(protectedFrom)
  expect(fromSeq).toBeGreaterThan(resetSeq)
  for (const entry of given) {
    expect(entry.seq).toBeLessThanOrEqual(toSeq)
    expect(entry.kind === 'context_op' || entry.kind === 'summary').toBe(false)
    expect(pinned.has(entry.seq)).toBe(false)
  }
  const raw = rawBefore(entries, resetSeq)
  for (const entry of given) expect(raw.has(entry.seq)).toBe(true)
  // Every tool unit is inside the range whole, or outside it whole; unresolved calls are outside.
  // Entries a summary already hid before this compaction are not summarized by it, so they are skipped.
  for (let seq = fromSeq; seq <= toSeq; seq++) {
    if (!raw.has(seq)) continue
    const entry = bySeq(seq)
    if (entry.kind === 'tool_call') {
      const result = entries.find((candidate) => candidate.kind === 'tool_result' && candidate.refs.toolCallId === entry.refs.toolCallId)
      expect(result).toBeDefined()
      expect((result as Entry).seq).toBeLessThanOrEqual(toSeq)
    }
    // The assistant text and every call of one model call go together.
    const callId = entry.kind === 'tool_result' ? undefined : entry.refs.callId
    if (callId !== undefined) {
      for (const member of entries.filter((candidate) => candidate.refs.callId === callId && candidate.kind !== 'tool_result')) {
        expect(member.seq).toBeLessThanOrEqual(toSeq)
      }
    }
    if (entry.kind === 'tool_result') {
      const call = entries.find((candidate) => candidate.kind === 'tool_call' && candidate.refs.toolCallId === entry.refs.toolCallId) as Entry
      if (call.seq > resetSeq) expect(call.seq).toBeGreaterThanOrEqual(fromSeq)
    }
  }
}

/**
 * Seqs the projector showed raw before this compaction (budget aside): all history outside the newest
 * summary, and every member of a tool unit that summary covers only in part (such a unit stays raw and whole).
 * Worked out from the entries alone, not from the planner, so the two can disagree.
 */
function rawBefore(entries: readonly Entry[], resetSeq: number): Set<number> {
  const history = entries.filter((entry) => entry.seq > resetSeq && entry.kind !== 'summary' && entry.kind !== 'context_op')
  const summary = entries.findLast((entry) => entry.seq > resetSeq && entry.kind === 'summary' && entry.payload.toSeq > resetSeq)
  const coveredFrom = summary?.kind === 'summary' ? Math.max(resetSeq + 1, summary.payload.fromSeq) : 0
  const coveredTo = summary?.kind === 'summary' ? summary.payload.toSeq : -1
  const callIdOf = new Map<string, string>()
  for (const entry of history)
    if (entry.kind === 'tool_call') callIdOf.set(entry.refs.toolCallId as string, entry.refs.callId ?? `tool:${entry.refs.toolCallId}`)
  const unitKey = (entry: Entry): string | undefined => {
    if (entry.kind === 'tool_result') return callIdOf.get(entry.refs.toolCallId as string)
    if (entry.kind === 'tool_call') return callIdOf.get(entry.refs.toolCallId as string)
    const callId = entry.refs.callId
    return callId !== undefined && [...callIdOf.values()].includes(callId) ? callId : `m:${entry.seq}`
  }
  const members = new Map<string, number[]>()
  for (const entry of history) {
    const key = unitKey(entry)
    if (key !== undefined) members.set(key, [...(members.get(key) ?? []), entry.seq])
  }
  const raw = new Set<number>()
  for (const seqs of members.values()) {
    if (seqs.every((seq) => seq >= coveredFrom && seq <= coveredTo)) continue
    for (const seq of seqs) raw.add(seq)
  }
  return raw
}

/** The first user message after the last reset is quoted by any summary covering it, or pinned. */
function checkTaskFraming(entries: readonly Entry[], pinned: ReadonlySet<number>): void {
  const summary = entries.at(-1)
  if (summary?.kind !== 'summary') return
  const resetSeq = Math.max(-1, ...entries.filter((entry) => entry.kind === 'context_op' && entry.payload.op === 'reset').map((entry) => entry.seq))
  const first = entries.find((entry) => entry.seq > resetSeq && entry.kind === 'message' && entry.payload.role === 'user')
  if (first?.kind !== 'message' || first.seq < summary.payload.fromSeq || first.seq > summary.payload.toSeq) return
  expect(summary.payload.content.includes(first.payload.content) || pinned.has(first.seq)).toBe(true)
}

/** After compaction, every projection invariant still holds. */
function checkProjection(entries: readonly Entry[], options: Parameters<typeof definePolicy>[0]): void {
  const policy = definePolicy(options)
  const result = project({ thread: entries, policy, counter })
  if (!result.meta.overflow) expect(result.meta.tokens.total).toBeLessThanOrEqual(policy.maxInputTokens - policy.reserveOutputTokens)
  expect(openAIChatProblems(toOpenAIChat(result))).toEqual([])
  const included = new Set(result.meta.includedSeqs)
  const dropped = new Set(
    result.meta.dropped.flatMap((range) => Array.from({ length: range.toSeq - range.fromSeq + 1 }, (_, offset) => range.fromSeq + offset)),
  )
  for (const entry of entries) {
    const covered = result.meta.summary !== undefined && entry.seq >= result.meta.summary.fromSeq && entry.seq <= result.meta.summary.toSeq
    expect(included.has(entry.seq) || covered || dropped.has(entry.seq)).toBe(true)
  }
  const conversation = result.messages.some((message) => message.role !== 'system')
  const problems = anthropicMessagesProblems(toAnthropicMessages(result))
  if (conversation) expect(problems.filter((problem) => problem !== 'messages: must not be empty')).toEqual([])
}
