import { memo } from '../utils/memo'
import type { CacheBreakpoint, MessageInfo, ProjectedMessage, ProjectionResult } from '../project/types'

/** Anthropic accepts at most this many `cache_control` markers per request, the automatic one included. */
export const MAX_CACHE_BREAKPOINTS = 4

/** OpenAI (GPT-5.6 and later) writes at most this many cache entries per request. */
export const MAX_OPENAI_CACHE_WRITES = 4

/**
 * OpenAI's implicit breakpoint on the latest message takes one of the request's cache writes:
 * explicit `prompt_cache_breakpoint` markers beyond this many would be writes it refuses.
 */
export const MAX_OPENAI_EXPLICIT_BREAKPOINTS = MAX_OPENAI_CACHE_WRITES - 1

/**
 * How many content blocks before a breakpoint Anthropic looks for an earlier cache entry. A breakpoint
 * more blocks than this after every entry written by earlier calls reads nothing.
 */
export const CACHE_LOOKBACK_BLOCKS = 20

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
  while (position >= 0 && ((infos[position] as MessageInfo).segment === 'pending' || (infos[position] as MessageInfo).segment === 'recall'))
    position--
  if (position < 0) return undefined
  if ((messages[position] as ProjectedMessage).role === 'tool') {
    while (position >= 0 && (messages[position] as ProjectedMessage).role === 'tool') position--
    if (position >= 0 && (messages[position] as ProjectedMessage).role === 'assistant') position--
  } else if ((messages[position] as ProjectedMessage).role === 'assistant') position--
  return position >= 0 && (infos[position] as MessageInfo).segment === 'history' ? position : undefined
}

/** Where a projection's requests ask providers to cache their prefix, newest last; see `cacheBreakpoints`. */
export interface CacheBreakpoints {
  /**
   * Anthropic `cache_control` breakpoints, in request order (tools → system → messages); at most 4
   * with the automatic one. Empty when `meta.cache.anthropic` is `off`.
   */
  readonly anthropic: readonly CacheBreakpoint[]
  /**
   * Where an OpenAI request may carry explicit `prompt_cache_breakpoint` markers, in request order:
   * on system, user or tool messages only (OpenAI accepts no marker on assistant content), at most
   * `MAX_OPENAI_EXPLICIT_BREAKPOINTS`. Empty when `meta.cache.openAI` is `off`.
   */
  readonly openAI: readonly CacheBreakpoint[]
}

/**
 * Where a projection's requests ask providers to cache: the one placement, a pure function of the
 * result (its messages and `meta`). `toAnthropicMessages`, `anthropicToolsCacheControl` and
 * `toOpenAIChat(result, { cacheBreakpoints: true })` put these on the wire; the devtools show them.
 * Kept out of `project()` so an app that never formats a request does not bundle it.
 */
export function cacheBreakpoints(result: ProjectionResult): CacheBreakpoints {
  // A request's formats and the devtools' views each ask for the same result's: placed once.
  return memo(placedByResult, result, () => place(result))
}

const placedByResult = /* @__PURE__ */ new WeakMap<ProjectionResult, CacheBreakpoints>()

function place(result: ProjectionResult): CacheBreakpoints {
  const { anthropic, openAI } = result.meta.cache
  const placed = anthropic === 'off' ? [] : placeCacheBreakpoints(result, anthropic)
  if (openAI === 'off') return { anthropic: placed, openAI: [] }
  return {
    anthropic: placed,
    openAI: placeOpenAICacheBreakpoints(anthropic === 'explicit' ? placed : placeCacheBreakpoints(result, 'explicit'), result.messages),
  }
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
function placeCacheBreakpoints(result: ProjectionResult, mode: 'explicit' | 'auto'): CacheBreakpoint[] {
  const { messages, meta } = result
  const { messages: infos, cache } = meta
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
  else if (meta.tokens.tools > 0) add('tools', 'tools-and-system', cache.ttl)

  // 2. The window's stable base: memory and summary checkpoint, before any history.
  const baseEnd = lastWithBlocks(0, messages.length - 1, (info) => info.segment === 'memory' || info.segment === 'summary')
  if (baseEnd !== undefined) add(baseEnd, 'stable-base', cache.ttl)

  // The automatic mode caches up to the last block on its own and takes one of the four slots.
  if (mode === 'auto') return breakpoints

  // 3. The newest history message no later call rewrites (only when the policy rewrites at all).
  // A batch of reductions moves that point several turns at once, further than a breakpoint looks
  // back: while a slot is free, the point the previous batch left keeps the prefix before the
  // batch readable on the call that applies it.
  // The recall block is chosen for this question and never repeated: the end is the message before it.
  const end = lastWithBlocks(0, messages.length - 1, (info) => info.segment !== 'recall')
  if (cache.reducesLater) {
    const stableBefore = (floor: number): number | undefined =>
      lastWithBlocks(0, messages.length - 1, (info) => info.segment === 'history' && info.seqs.every((seq) => seq < floor))
    const stable = stableBefore(cache.reductionFloor)
    const previous = cache.previousReductionFloor === undefined ? undefined : stableBefore(cache.previousReductionFloor)
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
      if (breakpoints.length < MAX_CACHE_BREAKPOINTS && hasBlocks(messages[bridge] as ProjectedMessage))
        breakpoints.push({ at: bridge, reason: 'lookback-bridge', ttl: '5m' })
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
