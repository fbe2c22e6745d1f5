import fc from 'fast-check'
import { toolArgumentsText } from '../entries/entry-text'
import { describe, expect, it } from 'vitest'
import type { Entry } from '../entries/entry'
import type { Thread } from '../entries/thread'
import { definePolicy, type ContextPolicy } from '../policy/policy'
import { createThread } from '../entries/thread'
import {
  textArbitrary,
  actionsArbitrary,
  buildThread,
  pendingArbitrary,
  policyOptionsArbitrary,
  sampleTools,
  unitMembers,
} from '../testing/random-thread'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { toAnthropicMessages } from '../formats/anthropic-messages'
import { openAIChatCacheFields, toOpenAIChat } from '../formats/openai-chat'
import { anthropicMessagesProblems, openAIChatProblems } from '../formats/provider-rules'
import { cacheBreakpoints } from '../caching/cache-breakpoints'
import { entryFates } from '../views/fates'
import { project } from './project'
import { projectionCase, projectionCheck, suiteCounters } from '../testing/projection-properties'
import { segments, type ProjectedMessage, type ProjectionResult } from './types'

// A fixed seed makes every run check the same 1,000 threads; fast-check prints the seed and the
// shrunk counterexample path on failure, so a failure is reproduced by running the file again.
const SEED = 20261122
const RUNS = 1000

const counters = suiteCounters()

// Kept apart from the shared policy arbitrary, whose random stream other suites' seeds depend on.
const cachePolicyArbitrary = fc.record(
  {
    anthropic: fc.constantFrom('explicit', 'auto', 'off') as fc.Arbitrary<'explicit' | 'auto' | 'off'>,
    ttl: fc.constantFrom('5m', '1h') as fc.Arbitrary<'5m' | '1h'>,
    openAIKey: fc.constantFrom('tenant-7', false) as fc.Arbitrary<string | false>,
    reduceEveryTurns: fc.integer({ min: 1, max: 5 }),
  },
  { requiredKeys: [] },
)

const caseArbitrary = fc
  .record({
    actions: actionsArbitrary,
    policy: policyOptionsArbitrary,
    cache: cachePolicyArbitrary,
    pending: pendingArbitrary,
    withTools: fc.boolean(),
    memory: fc.option(fc.constantFrom('tasks: book the ferry', '世界: 東京'), { nil: undefined }),
    exactCounter: fc.boolean(),
  })
  .map(({ actions, policy, cache, pending, withTools, memory, exactCounter }) =>
    projectionCase(actions, {
      policy: definePolicy({ ...policy, cache }),
      counter: exactCounter ? counters.exact : counters.heuristic,
      pending,
      ...(withTools ? { tools: sampleTools } : {}),
      ...(memory === undefined ? {} : { memory }),
    }),
  )

const check = projectionCheck(caseArbitrary, { runs: RUNS, seed: SEED })

/** Tokens of a projected message, counted from scratch from its text. */
function recount(message: ProjectedMessage, counter: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + counter.count(message.content)
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      tokens += TOOL_CALL_OVERHEAD_TOKENS + counter.count(call.name) + counter.count(toolArgumentsText(call))
    }
  }
  return tokens
}

function budgetOf(policy: ContextPolicy): number {
  return policy.maxInputTokens - policy.reserveOutputTokens
}

describe('project: invariants over random threads', () => {
  check('is pure and deterministic: same input, byte-identical output; inputs untouched', ({ thread, input }, result) => {
    const entriesBefore = JSON.stringify(thread.entries)
    const policyBefore = JSON.stringify(input.policy)
    const again = project(input)
    expect(JSON.stringify(again)).toBe(JSON.stringify(result))
    // Independent of object identity and caches: a deep copy of the entries, counted cold.
    const copy = JSON.parse(entriesBefore) as Entry[]
    const fromCopy = project({ ...input, thread: copy })
    expect(JSON.stringify(fromCopy)).toBe(JSON.stringify(result))
    expect(JSON.stringify(thread.entries)).toBe(entriesBefore)
    expect(JSON.stringify(input.policy)).toBe(policyBefore)
  })

  check('never goes over the budget unless it says overflow, and overflow means the mandatory part alone is too big', ({ thread, input }, result) => {
    const budget = budgetOf(input.policy)
    const { meta } = result
    if (!meta.overflow) expect(meta.tokens.total).toBeLessThanOrEqual(budget)
    // Recompute the mandatory part independently.
    const counter = input.counter
    const pending = input.pending ?? []
    let mandatory = REPLY_PRIMING_TOKENS + (input.tools === undefined ? 0 : counter.countTools(input.tools))
    if (input.policy.systemPrompt !== undefined) mandatory += MESSAGE_OVERHEAD_TOKENS + counter.count(input.policy.systemPrompt)
    for (const message of pending) mandatory += MESSAGE_OVERHEAD_TOKENS + counter.count(message.content)
    const latestUser = latestUserMessage(thread, input.policy)
    if (!pending.some((message) => message.role === 'user') && latestUser !== undefined) mandatory += counter.countEntry(latestUser)
    expect(meta.overflow).toBe(mandatory > budget)
    expect(meta.budget.free).toBe(budget - meta.tokens.total)
  })

  check('reports exact token counts: every message recounted from its text matches meta', ({ input }, result) => {
    const { meta } = result
    expect(meta.messages).toHaveLength(result.messages.length)
    let total = REPLY_PRIMING_TOKENS + meta.tokens.tools
    const bySegment: Record<string, number> = { system: REPLY_PRIMING_TOKENS, memory: 0, summary: 0, history: 0, recall: 0, pending: 0 }
    result.messages.forEach((message, position) => {
      const info = meta.messages[position]
      if (info === undefined) throw new Error('missing message info')
      expect(info.tokens).toBe(recount(message, input.counter))
      total += info.tokens
      bySegment[info.segment] = (bySegment[info.segment] ?? 0) + info.tokens
    })
    expect(meta.tokens.total).toBe(total)
    for (const segment of segments) expect(meta.tokens[segment]).toBe(bySegment[segment])
  })

  check('never drops the latest user message', ({ thread, input }, result) => {
    const latestUser = latestUserMessage(thread, input.policy)
    const pendingUser = (input.pending ?? []).some((message) => message.role === 'user')
    if (latestUser !== undefined && !pendingUser) expect(result.meta.includedSeqs).toContain(latestUser.seq)
  })

  check('keeps tool units whole: no result without its call, no call without its result', ({ thread, input }, result) => {
    const included = new Set(result.meta.includedSeqs)
    for (const seq of included) {
      const entry = thread.bySeq(seq) as Entry
      const toolCallId = entry.refs.toolCallId
      if (entry.kind === 'tool_result') expect(included.has(thread.index.callSeqByToolCallId.get(toolCallId as string) as number)).toBe(true)
      if (entry.kind === 'tool_call') {
        const resultSeq = thread.index.resultSeqByToolCallId.get(toolCallId as string)
        if (resultSeq !== undefined) expect(included.has(resultSeq)).toBe(true)
        else expect(input.policy.unresolvedToolCalls).toBe('interrupt')
      }
    }
    // In the messages: each tool message answers a call of the assistant message before the tool run,
    // and every call is answered before anything else is said.
    let open: string[] = []
    for (const message of result.messages) {
      if (message.role === 'tool') {
        expect(open).toContain(message.toolCallId)
        open = open.filter((id) => id !== message.toolCallId)
        continue
      }
      expect(open).toEqual([])
      if (message.role === 'assistant') open = (message.toolCalls ?? []).map((call) => call.id)
    }
    expect(open).toEqual([])
  })

  check('is chronological: segments in order, history units in thread order', ({ thread }, result) => {
    const order = result.meta.messages.map((info) => segments.indexOf(info.segment))
    for (let position = 1; position < order.length; position++) expect(order[position]).toBeGreaterThanOrEqual(order[position - 1] as number)
    // Each history message's unit start (a tool message belongs to its call's unit) must never go back.
    const visibleFrom = thread.index.resetSeq + 1
    const unitStart = (seq: number): number => Math.min(...unitMembers(thread, seq).filter((member) => member >= visibleFrom))
    let previous = -1
    result.messages.forEach((message, position) => {
      const info = result.meta.messages[position]
      if (info?.segment !== 'history') return
      const seq = message.role === 'tool' ? (thread.index.callSeqByToolCallId.get(message.toolCallId) as number) : (info.seqs[0] as number)
      const start = unitStart(seq)
      expect(start).toBeGreaterThanOrEqual(previous)
      previous = start
    })
  })

  check('gives requests every provider accepts: OpenAI Chat Completions and Anthropic Messages ordering rules', (_testCase, result) => {
    expect(openAIChatProblems(toOpenAIChat(result))).toEqual([])
    // With nothing but system text there is no conversation to send: Anthropic needs one message.
    const conversation = result.messages.some(
      (message) =>
        message.role === 'tool' ||
        (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) ||
        (message.role !== 'system' && message.content.trim() !== ''),
    )
    const problems = anthropicMessagesProblems(toAnthropicMessages(result))
    expect(conversation ? problems : problems.filter((problem) => problem !== 'messages: must not be empty')).toEqual([])
  })

  check(
    'places at most 4 cache breakpoints, in request order, only on messages that make a block, and the formats carry exactly them',
    ({ thread, input }, result) => {
      const { anthropic } = result.meta.cache
      const breakpoints = cacheBreakpoints(result).anthropic
      const automatic = anthropic === 'auto' ? 1 : 0
      expect(breakpoints.length + automatic).toBeLessThanOrEqual(4)
      if (anthropic === 'off') expect(breakpoints).toEqual([])
      const positions = breakpoints.map((breakpoint) => (breakpoint.at === 'tools' ? -1 : breakpoint.at))
      expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b))
      for (const breakpoint of breakpoints) {
        if (breakpoint.at === 'tools') {
          expect(input.tools).toBeDefined()
          // Only when no system prompt makes a block to carry it.
          expect(
            result.messages.some((message, position) => result.meta.messages[position]?.segment === 'system' && message.content.trim() !== ''),
          ).toBe(false)
          continue
        }
        const message = result.messages[breakpoint.at] as ProjectedMessage
        const makesBlock =
          message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) || message.content.trim() !== ''
        expect(makesBlock).toBe(true)
        // History breakpoints use the short TTL: the API wants longer TTLs first.
        if (breakpoint.reason !== 'tools-and-system' && breakpoint.reason !== 'stable-base') expect(breakpoint.ttl).toBe('5m')
      }
      const request = toAnthropicMessages(result)
      const marks = JSON.stringify(request).split('"cache_control"').length - 1
      expect(marks).toBe(breakpoints.filter((breakpoint) => breakpoint.at !== 'tools').length + automatic)
      const key = input.policy.cache.openAIKey === false ? undefined : (input.policy.cache.openAIKey ?? thread.entries[0]?.threadId)
      expect(openAIChatCacheFields(result)).toEqual(key === undefined ? {} : { prompt_cache_key: key })
    },
  )

  check(
    'places at most 3 OpenAI breakpoints, only on input messages with text, and marking them changes nothing but the markers',
    ({ input }, result) => {
      const openAIBreakpoints = cacheBreakpoints(result).openAI
      if (input.policy.cache.openAI === 'off') expect(openAIBreakpoints).toEqual([])
      expect(openAIBreakpoints.length).toBeLessThanOrEqual(3)
      const positions = openAIBreakpoints.map((breakpoint) => breakpoint.at as number)
      expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b))
      for (const position of positions) {
        const message = result.messages[position] as ProjectedMessage
        expect(message.role).not.toBe('assistant')
        expect(message.content).not.toBe('')
      }
      const marked = toOpenAIChat(result, { cacheBreakpoints: true })
      expect(openAIChatProblems(marked)).toEqual([])
      expect(JSON.stringify(marked).split('"prompt_cache_breakpoint"').length - 1).toBe(positions.length)
      const plain = toOpenAIChat(result)
      // A marked string became one text part; parts (a tool result's, a message's) keep theirs, the marker aside.
      const unmarked = marked.map((message, position) => {
        if (message.role === 'assistant' || !Array.isArray(message.content)) return message
        const parts = message.content.map(({ prompt_cache_breakpoint: _marker, ...part }) => part)
        return typeof plain[position]?.content === 'string'
          ? { ...message, content: (parts[0] as { text: string }).text }
          : { ...message, content: parts }
      })
      expect(JSON.stringify(unmarked)).toBe(JSON.stringify(plain))
    },
  )

  check('reductions never reach past the protected zone, and wait for the cache window when told to', ({ thread, input }, result) => {
    const { policy } = input
    const floor = result.meta.cache.reductionFloor
    // A unit (one model call's texts, calls and results) is reduced or not as a whole, by where it starts.
    for (const reduction of result.meta.reduced) {
      const toolCallId = thread.bySeq(reduction.seq)?.refs.toolCallId as string
      const callId = thread.bySeq(thread.index.callSeqByToolCallId.get(toolCallId) as number)?.refs.callId as string
      expect(thread.index.seqsByCallId.get(callId)?.[0]).toBeLessThan(floor)
    }
    const visibleTurns = thread.index.userSeqs.filter((seq) => seq > thread.index.resetSeq).length
    if (
      policy.cacheFriendly &&
      policy.cache.reduceEveryTurns > visibleTurns &&
      result.meta.cacheWindowStart === undefined &&
      !result.meta.dropped.some((range) => range.reason === 'cache-window' || range.reason === 'budget')
    ) {
      // Everything fits and no batch of turns is complete: nothing already sent is rewritten.
      expect(result.meta.reduced).toEqual([])
    }
  })

  check('never shortens or isolates pinned units, unresolved calls, or the last keepLastTurns turns', ({ thread, input }, result) => {
    const { policy } = input
    const visibleFrom = thread.index.resetSeq + 1
    const userSeqs = thread.index.userSeqs.filter((seq) => seq >= visibleFrom)
    const pendingUser = (input.pending ?? []).some((message) => message.role === 'user')
    const protectedTurns = pendingUser ? policy.keepLastTurns - 1 : policy.keepLastTurns
    const protectedFrom =
      protectedTurns <= 0
        ? Number.POSITIVE_INFINITY
        : userSeqs.length < protectedTurns
          ? visibleFrom
          : (userSeqs[userSeqs.length - protectedTurns] as number)
    const pinned = new Set(result.meta.pinnedSeqs)
    const touched = [
      ...result.meta.reduced.map((reduction) => reduction.seq),
      ...result.meta.dropped.filter((range) => range.reason === 'isolated').flatMap((range) => seqsOf(range.fromSeq, range.toSeq)),
    ]
    for (const seq of touched) {
      const members = unitMembers(thread, seq).filter((member) => member >= visibleFrom)
      expect(Math.min(...members)).toBeLessThan(protectedFrom)
      expect(members.some((member) => pinned.has(member))).toBe(false)
      const calls = members.map((member) => thread.bySeq(member) as Entry).filter((entry) => entry.kind === 'tool_call')
      for (const call of calls) expect(thread.index.resultSeqByToolCallId.has(call.refs.toolCallId as string)).toBe(true)
    }
    if (policy.toolTrace === 'transparent' && !policy.dedupeToolResults && policy.pruneToolOutputsOverTokens === undefined)
      expect(touched).toEqual([])
    if (!policy.cacheFriendly) expect(result.meta.dropped.some((range) => range.reason === 'cache-window')).toBe(false)
  })

  check('accounts for every entry: raw, covered by the summary in use, or dropped with a reason', ({ thread }, result) => {
    const { meta } = result
    const included = new Set(meta.includedSeqs)
    const droppedSeqs = new Map<number, string>()
    const reduced = new Map(meta.reduced.map((item) => [item.seq, item.how]))
    const fates = entryFates(meta)
    let previousTo = -1
    for (const range of meta.dropped) {
      expect(range.fromSeq).toBeLessThanOrEqual(range.toSeq)
      expect(range.fromSeq).toBeGreaterThan(previousTo)
      previousTo = range.toSeq
      for (let seq = range.fromSeq; seq <= range.toSeq; seq++) droppedSeqs.set(seq, range.reason)
    }
    for (const entry of thread.entries) {
      const raw = included.has(entry.seq)
      const covered = meta.summary !== undefined && entry.seq >= meta.summary.fromSeq && entry.seq <= meta.summary.toSeq
      const dropped = droppedSeqs.has(entry.seq)
      expect(raw && dropped).toBe(false)
      expect(raw || covered || dropped).toBe(true)
      // The one reading of meta every view uses gives that same account.
      const fate = fates.fateOf(entry.seq)
      if (meta.summary !== undefined && entry.seq === meta.summary.seq) expect(fate.state).toBe('summary')
      else if (raw) expect(fate).toEqual({ state: 'included', reduced: reduced.get(entry.seq) })
      else if (dropped) expect(fate).toEqual({ state: 'dropped', reason: droppedSeqs.get(entry.seq) })
      else expect(fate).toEqual({ state: 'summarized', summarySeq: meta.summary?.seq })
    }
    expect(fates.fateOf(thread.nextSeq).state).toBe('unprojected')
    // A raw entry really is in the messages.
    const seqsInMessages = new Set(meta.messages.flatMap((info) => info.seqs))
    for (const seq of included) expect(seqsInMessages.has(seq)).toBe(true)
    for (const seq of seqsInMessages) expect(included.has(seq)).toBe(true)
  })

  check('respects maxMessages for everything but pinned units and the latest user message', ({ thread, input }, result) => {
    const { maxMessages } = input.policy
    if (maxMessages === undefined) return
    const pinned = new Set(result.meta.pinnedSeqs)
    let unpinnedMessages = 0
    result.messages.forEach((message, position) => {
      const info = result.meta.messages[position]
      if (info?.segment !== 'history') return
      const anchorSeq = message.role === 'tool' ? (thread.index.callSeqByToolCallId.get(message.toolCallId) as number) : (info.seqs[0] as number)
      if (!unitMembers(thread, anchorSeq).some((seq) => pinned.has(seq))) unpinnedMessages++
    })
    expect(unpinnedMessages).toBeLessThanOrEqual(maxMessages)
  })
})

describe('project: reductions never touch what is protected', () => {
  it(`leaves pinned tool units whole under masking, isolation, dedupe and pruning (${RUNS} tool-heavy threads, seed ${SEED})`, () => {
    const arbitrary = fc.record({
      turns: fc.array(
        fc.record({
          question: textArbitrary,
          calls: fc.integer({ min: 1, max: 3 }),
          output: fc.constantFrom('same output', 'x'.repeat(300), '東京 🙂'),
        }),
        { minLength: 2, maxLength: 12 },
      ),
      pinFractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
      toolTrace: fc.constantFrom('boundary', 'masked', 'transparent') as fc.Arbitrary<'boundary' | 'masked' | 'transparent'>,
      keepLastTurns: fc.integer({ min: 0, max: 2 }),
    })
    fc.assert(
      fc.property(arbitrary, ({ turns, pinFractions, toolTrace, keepLastTurns }) => {
        const thread = createThread({ id: 'pins' })
        const callSeqs: number[] = []
        turns.forEach((turn, turnNumber) => {
          thread.append({ kind: 'message', payload: { role: 'user', content: turn.question } })
          for (let call = 0; call < turn.calls; call++) {
            const refs = { callId: `c${turnNumber}_${call}`, toolCallId: `t${turnNumber}_${call}` }
            callSeqs.push(thread.append({ kind: 'tool_call', payload: { name: 'read', arguments: { path: 'a.txt' } }, refs }).seq)
            thread.append({ kind: 'tool_result', payload: { name: 'read', result: turn.output }, refs })
          }
        })
        for (const fraction of pinFractions) {
          const target = callSeqs[Math.min(callSeqs.length - 1, Math.floor(fraction * callSeqs.length))] as number
          thread.append({ kind: 'context_op', payload: { op: 'pin', target: fraction < 0.5 ? target : target + 1, reason: 'keep' } })
        }
        const policy = definePolicy({
          maxInputTokens: 100_000,
          reserveOutputTokens: 0,
          toolTrace,
          keepLastTurns,
          dedupeToolResults: true,
          pruneToolOutputsOverTokens: 20,
          pruneKeepLines: 1,
          pruneKeepBytes: 10,
        })
        const result = project({ thread, policy, counter: counters.heuristic })
        const pinned = new Set(result.meta.pinnedSeqs)
        const isolated = result.meta.dropped.filter((range) => range.reason === 'isolated').flatMap((range) => seqsOf(range.fromSeq, range.toSeq))
        for (const seq of [...result.meta.reduced.map((reduction) => reduction.seq), ...isolated]) {
          expect(unitMembers(thread, seq).some((member) => pinned.has(member))).toBe(false)
        }
        // Pinned units are sent exactly as they are.
        for (const seq of pinned) {
          for (const member of unitMembers(thread, seq)) expect(result.meta.includedSeqs).toContain(member)
        }
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })
})

function seqsOf(fromSeq: number, toSeq: number): number[] {
  return Array.from({ length: toSeq - fromSeq + 1 }, (_, offset) => fromSeq + offset)
}

function latestUserMessage(thread: Thread, policy: ContextPolicy): Entry | undefined {
  if (!policy.includeKinds.includes('message')) return undefined
  const seqs = thread.index.userSeqs
  const last = seqs[seqs.length - 1]
  if (last === undefined || last <= thread.index.resetSeq) return undefined
  return thread.bySeq(last)
}

describe('project: batched reductions', () => {
  it(`between batches, a new message never changes how anything already sent is sent (${RUNS / 4} threads grown entry by entry, seed ${SEED})`, () => {
    const arbitrary = fc.record({
      actions: actionsArbitrary,
      maxInputTokens: fc.integer({ min: 200, max: 3000 }),
      keepLastTurns: fc.integer({ min: 0, max: 3 }),
      reduceEveryTurns: fc.integer({ min: 2, max: 4 }),
      toolTrace: fc.constantFrom('masked', 'boundary') as fc.Arbitrary<'masked' | 'boundary'>,
      pruneToolOutputsOverTokens: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
    })
    fc.assert(
      fc.property(arbitrary, ({ actions, maxInputTokens, keepLastTurns, reduceEveryTurns, toolTrace, pruneToolOutputsOverTokens }) => {
        const thread = buildThread(actions)
        // Deduplication is left out: a newer identical result rewrites the older one whenever it arrives.
        const policy = definePolicy({
          maxInputTokens,
          reserveOutputTokens: Math.floor(maxInputTokens / 8),
          keepLastTurns,
          toolTrace,
          cacheFriendly: true,
          cache: { reduceEveryTurns },
          ...(pruneToolOutputsOverTokens === undefined ? {} : { pruneToolOutputsOverTokens }),
        })
        const entries = thread.entries
        const sent = (result: ProjectionResult): Map<number, string> => {
          const bySeq = new Map<number, string>()
          result.meta.messages.forEach((info, position) => {
            if (info.segment === 'history') for (const seq of info.seqs) bySeq.set(seq, JSON.stringify(result.messages[position]))
          })
          return bySeq
        }
        let previous: ProjectionResult | undefined
        for (let length = 1; length <= entries.length; length++) {
          const result = project({ thread: entries.slice(0, length), policy, counter: counters.heuristic })
          const added = entries[length - 1] as Entry
          // A plain message (a new turn, an answer) joins no earlier unit: what changes, reductions changed.
          if (previous !== undefined && added.kind === 'message' && added.refs.callId === undefined) {
            const firstHistory = (projection: ProjectionResult): number | undefined =>
              projection.meta.messages.find((info) => info.segment === 'history')?.seqs[0]
            const userTurns = entries
              .slice(0, length)
              .filter((entry) => entry.kind === 'message' && entry.payload.role === 'user' && entry.seq > thread.index.resetSeq).length
            const batchBoundary = added.kind === 'message' && added.payload.role === 'user' && userTurns % reduceEveryTurns === 0
            const sameWindow = firstHistory(previous) === firstHistory(result) && previous.meta.summary?.seq === result.meta.summary?.seq
            if (!batchBoundary && sameWindow && !result.meta.overflow && !previous.meta.overflow) {
              const before = sent(previous)
              const after = sent(result)
              for (const [seq, text] of before) if (after.has(seq)) expect(after.get(seq)).toBe(text)
            }
          }
          previous = result
        }
      }),
      { numRuns: RUNS / 4, seed: SEED },
    )
  })
})
