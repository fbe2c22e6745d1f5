// TEST ONLY: prompt-cache breakpoint placement as `project()` did it inside `meta` before placement
// became `cacheBreakpoints(result)`, a function over the projection result: the oracle the property
// test (cache-breakpoints.oracle.test.ts) checks the new function against, on random threads and
// policies. Frozen: it keeps the old code as it was; never imported by core's runtime code.
import { summaryNeeded } from '../../project/project'
import type { CachePolicy, ContextPolicy } from '../../policy/policy'
import type { CacheBreakpoint, MessageInfo, ProjectedMessage } from '../../project/types'
import { CACHE_LOOKBACK_BLOCKS, MAX_CACHE_BREAKPOINTS, MAX_OPENAI_EXPLICIT_BREAKPOINTS } from '../../caching/cache-breakpoints'
import { fitCheckpoints } from '../../project/checkpoint-segments'
import { measureFixedSegments } from '../../project/fixed-segments'
import { projectionContext } from '../../project/projection-context'
import { assembleMessages } from '../../project/projection-meta'
import { selectUnits } from '../../project/select-units'
import type { ProjectInput } from '../../project/types'
import { planWindows } from '../../project/window-plan'

/**
 * `meta.cache.breakpoints` and `meta.cache.openAIBreakpoints` as `project(input)` computed them:
 * its phases up to the assembled messages, then the placement with what it knew inside.
 */
export function oracleCacheBreakpoints(input: ProjectInput): { readonly breakpoints: CacheBreakpoint[]; readonly openAIBreakpoints: CacheBreakpoint[] } {
  const context = projectionContext(input)
  const fixed = measureFixedSegments(context)
  let checkpoints = fitCheckpoints(context, context.budget - fixed.mandatoryTokens, false)
  let windows = planWindows(context, fixed, checkpoints)
  let selection = selectUnits(context, fixed, checkpoints, windows)
  // The summary stands in only for what does not fit (as project() decides).
  if (summaryNeeded(context, checkpoints, selection)) {
    checkpoints = fitCheckpoints(context, context.budget - fixed.mandatoryTokens, true)
    windows = planWindows(context, fixed, checkpoints)
    selection = selectUnits(context, fixed, checkpoints, windows)
  }
  const { messages, infos } = assembleMessages(context, fixed, checkpoints, selection, undefined)
  const { policy } = input
  // From here on, as projection-meta.ts had it.
  const placement = { messages, infos, hasTools: fixed.toolTokens > 0, reductionFloor: windows.reductionFloor, previousReductionFloor: windows.previousReductionFloor }
  const breakpoints = placeCacheBreakpoints({ ...placement, policy })
  const openAIBreakpoints =
    policy.cache.openAI === 'off'
      ? []
      : placeOpenAICacheBreakpoints(
          policy.cache.anthropic === 'explicit' ? breakpoints : placeCacheBreakpoints({ ...placement, policy: { ...policy, cache: { ...policy.cache, anthropic: 'explicit' } } }),
          messages,
        )
  return { breakpoints, openAIBreakpoints }
}

/** Whether a projected message becomes at least one non-empty Anthropic block. */
function hasBlocks(message: ProjectedMessage): boolean {
  if (message.role === 'tool') return true
  if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true
  return message.content.trim() !== ''
}

/** How many Anthropic content blocks a projected message becomes (before merging, which keeps the count). */
function blocksOf(message: ProjectedMessage): number {
  if (message.role === 'tool') return 1
  const text = message.content.trim() === '' ? 0 : 1
  return message.role === 'assistant' ? text + (message.toolCalls?.length ?? 0) : text
}

/**
 * The message the previous model call's request most likely ended with: before the newest
 * assistant turn (its answer, or its tool calls and their results) and any pending messages.
 */
function previousRequestEnd(messages: readonly ProjectedMessage[], infos: readonly MessageInfo[]): number | undefined {
  let position = messages.length - 1
  while (position >= 0 && (infos[position] as MessageInfo).segment === 'pending') position--
  if (position < 0) return undefined
  if ((messages[position] as ProjectedMessage).role === 'tool') {
    while (position >= 0 && (messages[position] as ProjectedMessage).role === 'tool') position--
    if (position >= 0 && (messages[position] as ProjectedMessage).role === 'assistant') position--
  } else if ((messages[position] as ProjectedMessage).role === 'assistant') position--
  return position >= 0 && (infos[position] as MessageInfo).segment === 'history' ? position : undefined
}

/** Whether the policy can still change a history message's bytes after it was first sent. */
function reducesLater(policy: ContextPolicy): boolean {
  return policy.toolTrace !== 'transparent' || policy.dedupeToolResults || policy.pruneToolOutputsOverTokens !== undefined
}

/**
 * Where a request asks Anthropic to cache, newest last. Each breakpoint caches the prefix up to and
 * including its block; a later call reads the longest cached prefix whose entry lies at one of its
 * own breakpoints or within `CACHE_LOOKBACK_BLOCKS` before one. So breakpoints go where bytes stay
 * put: after tools and system (long TTL), after the fixed segments that open the window (memory,
 * summary checkpoint), after the newest history message reductions will not touch again, and at the
 * end of the request (the next call repeats it and appends, typically a few blocks: within lookback).
 * Never on a message that makes no block (empty text), never more than `MAX_CACHE_BREAKPOINTS`.
 */
function placeCacheBreakpoints(options: {
  readonly messages: readonly ProjectedMessage[]
  readonly infos: readonly MessageInfo[]
  readonly policy: ContextPolicy
  readonly hasTools: boolean
  /** Results from this seq on may still be reduced by a later call. */
  readonly reductionFloor: number
  /** Where the batch of reductions before this one stopped, when reductions come in batches. */
  readonly previousReductionFloor?: number | undefined
}): CacheBreakpoint[] {
  const { messages, infos, policy } = options
  const cache: CachePolicy = policy.cache
  if (cache.anthropic === 'off') return []
  const breakpoints: CacheBreakpoint[] = []
  const add = (at: number | 'tools', reason: CacheBreakpoint['reason'], ttl: CacheBreakpoint['ttl']): void => {
    if (breakpoints.some((breakpoint) => breakpoint.at === at)) return
    breakpoints.push({ at, reason, ttl })
  }
  const lastWithBlocks = (from: number, to: number, accept: (info: MessageInfo) => boolean): number | undefined => {
    for (let position = to; position >= from; position--) {
      if (accept(infos[position] as MessageInfo) && hasBlocks(messages[position] as ProjectedMessage)) return position
    }
    return undefined
  }

  // 1. Tools and system prompt: identical on every call of the thread.
  const systemEnd = lastWithBlocks(0, messages.length - 1, (info) => info.segment === 'system')
  if (systemEnd !== undefined) add(systemEnd, 'tools-and-system', cache.ttl)
  else if (options.hasTools) add('tools', 'tools-and-system', cache.ttl)

  // 2. The window's stable base: memory and summary checkpoint, before any history.
  const baseEnd = lastWithBlocks(0, messages.length - 1, (info) => info.segment === 'memory' || info.segment === 'summary')
  if (baseEnd !== undefined) add(baseEnd, 'stable-base', cache.ttl)

  // The automatic mode caches up to the last block on its own and takes one of the four slots.
  if (cache.anthropic === 'auto') return breakpoints

  // 3. The newest history message no later call rewrites (only when the policy rewrites at all).
  // A batch of reductions moves that point several turns at once, further than a breakpoint looks
  // back: while a slot is free, the point the previous batch left keeps the prefix before the
  // batch readable on the call that applies it.
  const end = lastWithBlocks(0, messages.length - 1, () => true)
  if (reducesLater(policy)) {
    const stableBefore = (floor: number): number | undefined =>
      lastWithBlocks(0, messages.length - 1, (info) => info.segment === 'history' && info.seqs.every((seq) => seq < floor))
    const stable = stableBefore(options.reductionFloor)
    const previous = options.previousReductionFloor === undefined ? undefined : stableBefore(options.previousReductionFloor)
    if (previous !== undefined && previous !== stable && previous !== end && breakpoints.length < MAX_CACHE_BREAKPOINTS - 2) {
      add(previous, 'previous-stable', '5m')
    }
    if (stable !== undefined && stable !== end) add(stable, 'newest-stable', '5m')
  }

  // 4. The end of the request.
  if (end !== undefined && breakpoints.length < MAX_CACHE_BREAKPOINTS) add(end, 'request-end', '5m')

  // 5. When the newest turn adds more blocks than the end breakpoint looks back (many parallel tool
  // calls), the previous call's entry would be out of its reach: mark where that request ended,
  // giving up the previous-stable, then the newest-stable breakpoint if all four are taken.
  const bridge = end === undefined ? undefined : previousRequestEnd(messages, infos)
  if (bridge !== undefined && end !== undefined && !breakpoints.some((breakpoint) => breakpoint.at === bridge)) {
    let tail = 0
    for (let position = bridge + 1; position <= end; position++) tail += blocksOf(messages[position] as ProjectedMessage)
    if (tail > CACHE_LOOKBACK_BLOCKS) {
      for (const reason of ['previous-stable', 'newest-stable'] as const) {
        if (breakpoints.length < MAX_CACHE_BREAKPOINTS) break
        const index = breakpoints.findIndex((breakpoint) => breakpoint.reason === reason)
        if (index !== -1) breakpoints.splice(index, 1)
      }
      if (breakpoints.length < MAX_CACHE_BREAKPOINTS && hasBlocks(messages[bridge] as ProjectedMessage)) breakpoints.push({ at: bridge, reason: 'lookback-bridge', ttl: '5m' })
    }
  }
  // Request order: tools, then messages by position.
  return breakpoints.sort((first, second) => (first.at === 'tools' ? -1 : first.at) - (second.at === 'tools' ? -1 : second.at))
}

/**
 * Where an OpenAI request carries explicit `prompt_cache_breakpoint` markers, from the explicit
 * Anthropic placement of the same projection. OpenAI (GPT-5.6 and later) matches a cache entry only
 * where a breakpoint wrote one, keeps an implicit breakpoint on the latest message (so `request-end`
 * is not needed) and reads entries written by earlier requests wherever they lie in this one (so the
 * `lookback-bridge` is not needed), and takes markers on input content only: a breakpoint on an
 * assistant message moves back to the nearest system, user or tool message before it. Tool schemas
 * cannot carry one; they sit before every message, so the system prompt's breakpoint covers them.
 * Keeps the oldest markers when there are more than `MAX_OPENAI_EXPLICIT_BREAKPOINTS`: they cover
 * the longest-lived prefixes.
 */
function placeOpenAICacheBreakpoints(explicit: readonly CacheBreakpoint[], messages: readonly ProjectedMessage[]): CacheBreakpoint[] {
  const placed: CacheBreakpoint[] = []
  for (const breakpoint of explicit) {
    if (breakpoint.at === 'tools' || breakpoint.reason === 'request-end' || breakpoint.reason === 'lookback-bridge') continue
    let at = breakpoint.at
    while (at >= 0 && !takesOpenAIBreakpoint(messages[at] as ProjectedMessage)) at--
    if (at < 0 || placed.some((existing) => existing.at === at)) continue
    placed.push({ at, reason: breakpoint.reason, ttl: breakpoint.ttl })
  }
  return placed.sort((first, second) => (first.at as number) - (second.at as number)).slice(0, MAX_OPENAI_EXPLICIT_BREAKPOINTS)
}

/** OpenAI accepts a cache breakpoint on input content: system, user and tool messages with text. */
function takesOpenAIBreakpoint(message: ProjectedMessage): boolean {
  return message.role !== 'assistant' && message.content !== ''
}
