import { CACHE_LOOKBACK_BLOCKS } from './cache-breakpoints'
import { HashBuilder } from '../utils/hash'
import type { CacheBlock, CacheSimulationRequest, SimulatePromptCacheOptions } from './simulate-prompt-cache'

const TTL_MS = { '5m': 5 * 60_000, '30m': 30 * 60_000, '1h': 60 * 60_000 } as const
/** OpenAI reads consider only this many most recent breakpoint entries. */
export const OPENAI_BREAKPOINT_ENTRIES_READ = 50
/** OpenAI serves cached prefixes in steps of this many tokens past the 1,024 minimum. */
export const OPENAI_CACHE_INCREMENT_TOKENS = 128
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS = 1_024

/** The simulated cache of one model: what lives in it and the model's minimum cacheable prefix. */
export interface SimulatedCache {
  readonly minimum: number
  /** Live entries: prefix key → expiry time (ms) and TTL, per the provider's rules. */
  readonly entries: Map<string, { expiresAt: number; ttlMs: number }>
  /** OpenAI breakpoint entries → expiry, least recently used first: only the newest 50 are read. */
  readonly recentEntries: Map<string, number>
}

/** `keys[i]` identifies the first `i` blocks; `sums[i]` is their tokens. Index 0 is the empty prefix. */
export interface Prefixes {
  readonly keys: readonly string[]
  readonly sums: readonly number[]
}

/** What one request reads and writes; `writeLongTokens` are Anthropic 1h writes, billed higher. */
export interface CacheTraffic {
  readonly readTokens: number
  readonly writeTokens: number
  readonly writeLongTokens: number
}

/** One provider's caching rules: reads and writes one request against the cache. */
export type CacheModel = (cache: SimulatedCache, request: CacheSimulationRequest, prefixes: Prefixes) => CacheTraffic

/** The rules of the provider (and, for OpenAI, the caching kind) the options name. */
export function cacheModelOf(options: SimulatePromptCacheOptions, openAICaching: 'prefix' | 'breakpoints'): CacheModel {
  if (options.provider === 'anthropic') return anthropicCache
  if (options.provider === 'gemini') return geminiCache(options.geminiRetentionMs ?? TTL_MS['5m'])
  return openAICaching === 'breakpoints'
    ? openAIBreakpointCache(options.openAIRetentionMs ?? TTL_MS['30m'])
    : openAIPrefixCache(options.openAIRetentionMs ?? TTL_MS['5m'])
}

function live(cache: SimulatedCache, key: string, at: number): boolean {
  const entry = cache.entries.get(key)
  return entry !== undefined && entry.expiresAt >= at
}

/** Anthropic: only breakpoints read and write; a read refreshes the entry's TTL. */
const anthropicCache: CacheModel = (cache, request, { keys, sums }) => {
  const breakpoints = anthropicBreakpoints(request)
  // Read: the longest live prefix any breakpoint can see (its own block and the lookback before it).
  let readEnd = 0
  for (const { position } of breakpoints) {
    for (let end = position; end >= Math.max(1, position - CACHE_LOOKBACK_BLOCKS); end--) {
      if ((sums[end] as number) < cache.minimum) break
      if (live(cache, keys[end] as string, request.at)) {
        readEnd = Math.max(readEnd, end)
        break
      }
    }
  }
  if (readEnd > 0) {
    const entry = cache.entries.get(keys[readEnd] as string) as { expiresAt: number; ttlMs: number }
    entry.expiresAt = request.at + entry.ttlMs
  }
  // Write: each breakpoint's prefix past what was read, at that breakpoint's TTL.
  let writeTokens = 0
  let writeLongTokens = 0
  let writtenTo = readEnd
  for (const { position, ttl } of breakpoints) {
    if ((sums[position] as number) < cache.minimum) continue
    const ttlMs = TTL_MS[ttl]
    const key = keys[position] as string
    const existing = cache.entries.get(key)
    cache.entries.set(key, { expiresAt: request.at + ttlMs, ttlMs: Math.max(ttlMs, existing?.ttlMs ?? 0) })
    if (position <= writtenTo) continue
    const tokens = (sums[position] as number) - (sums[writtenTo] as number)
    if (ttl === '1h') writeLongTokens += tokens
    else writeTokens += tokens
    writtenTo = position
  }
  return { readTokens: sums[readEnd] as number, writeTokens, writeLongTokens }
}

/** Gemini implicit caching: the longest recent prefix at a block boundary, whole; nothing billed for writes. */
function geminiCache(retention: number): CacheModel {
  return (cache, request, { keys, sums }) => {
    let readTokens = 0
    for (let end = keys.length - 1; end >= 1 && (sums[end] as number) >= cache.minimum; end--) {
      if (live(cache, keys[end] as string, request.at)) {
        readTokens = sums[end] as number
        break
      }
    }
    if ((sums[sums.length - 1] as number) >= cache.minimum)
      for (let end = 1; end < keys.length; end++) cache.entries.set(keys[end] as string, { expiresAt: request.at + retention, ttlMs: retention })
    return { readTokens, writeTokens: 0, writeLongTokens: 0 }
  }
}

/** OpenAI at breakpoints (GPT-5.6 and later): see `SimulatePromptCacheOptions.openAICaching`. */
function openAIBreakpointCache(retention: number): CacheModel {
  return (cache, request, { keys, sums }) => {
    const recent = cache.recentEntries
    // Read: the longest entry written by an earlier breakpoint that this request starts with.
    let readEnd = 0
    for (let end = keys.length - 1; end >= 1 && (sums[end] as number) >= cache.minimum; end--) {
      const expiresAt = recent.get(keys[end] as string)
      if (expiresAt !== undefined && expiresAt >= request.at) {
        readEnd = end
        break
      }
    }
    const touch = (key: string): void => {
      recent.delete(key)
      recent.set(key, request.at + retention)
      if (recent.size > OPENAI_BREAKPOINT_ENTRIES_READ) recent.delete(recent.keys().next().value as string)
    }
    if (readEnd > 0) touch(keys[readEnd] as string)
    // Write: each breakpoint's prefix past what was read, billed as a cache write.
    let writeTokens = 0
    let writtenTo = readEnd
    for (const position of openAIBreakpointPositions(request)) {
      if ((sums[position] as number) < cache.minimum) continue
      touch(keys[position] as string)
      if (position <= writtenTo) continue
      writeTokens += (sums[position] as number) - (sums[writtenTo] as number)
      writtenTo = position
    }
    return { readTokens: sums[readEnd] as number, writeTokens, writeLongTokens: 0 }
  }
}

/** OpenAI by prefix (before GPT-5.6): cached at every block boundary, read in 128-token steps past 1,024. */
function openAIPrefixCache(retention: number): CacheModel {
  return (cache, request, { keys, sums }) => {
    let matched = 0
    for (let end = keys.length - 1; end >= 1; end--) {
      if (live(cache, keys[end] as string, request.at)) {
        matched = end
        break
      }
    }
    const matchedTokens = sums[matched] as number
    const readTokens =
      matchedTokens < DEFAULT_MINIMUM_CACHEABLE_TOKENS
        ? 0
        : DEFAULT_MINIMUM_CACHEABLE_TOKENS +
          Math.floor((matchedTokens - DEFAULT_MINIMUM_CACHEABLE_TOKENS) / OPENAI_CACHE_INCREMENT_TOKENS) * OPENAI_CACHE_INCREMENT_TOKENS
    if ((sums[sums.length - 1] as number) >= DEFAULT_MINIMUM_CACHEABLE_TOKENS) {
      for (let end = 1; end < keys.length; end++) cache.entries.set(keys[end] as string, { expiresAt: request.at + retention, ttlMs: retention })
    }
    return { readTokens, writeTokens: 0, writeLongTokens: 0 }
  }
}

export function prefixesOf(blocks: readonly CacheBlock[]): Prefixes {
  const keys = ['']
  const sums = [0]
  const hash = new HashBuilder()
  for (const block of blocks) {
    hash.add(block.id)
    // The hash alone could collide; the count of blocks and the running hash together make a safe key.
    keys.push(`${keys.length}:${hash.hex()}`)
    sums.push((sums[sums.length - 1] as number) + block.tokens)
  }
  return { keys, sums }
}

/** OpenAI breakpoint positions (1-based), ascending: the marked blocks, and the last one in implicit mode. */
export function openAIBreakpointPositions(request: CacheSimulationRequest): number[] {
  const positions = new Set<number>()
  request.blocks.forEach((block, index) => {
    if (block.breakpoint !== undefined) positions.add(index + 1)
  })
  if ((request.openAIMode ?? 'implicit') === 'implicit' && request.blocks.length > 0) positions.add(request.blocks.length)
  return [...positions].sort((first, second) => first - second)
}

/** Breakpoint positions (1-based: the prefix ending after that block) in request order. */
function anthropicBreakpoints(request: CacheSimulationRequest): { position: number; ttl: '5m' | '1h' }[] {
  const breakpoints: { position: number; ttl: '5m' | '1h' }[] = []
  request.blocks.forEach((block, index) => {
    if (block.breakpoint !== undefined && block.breakpoint !== '30m') breakpoints.push({ position: index + 1, ttl: block.breakpoint })
  })
  if (request.automatic !== undefined && request.blocks.length > 0) {
    const last = breakpoints[breakpoints.length - 1]
    if (last?.position === request.blocks.length) last.ttl = last.ttl === '1h' ? '1h' : request.automatic
    else breakpoints.push({ position: request.blocks.length, ttl: request.automatic })
  }
  return breakpoints
}
