import { InvalidCacheSimulationError } from '../errors/threadlens-error'
import { modelInfo, type ModelInfo, type ModelPricing } from '../models/models'
import { openAITakesCacheBreakpoints } from '../formats/openai-chat'
import { MAX_CACHE_BREAKPOINTS, MAX_OPENAI_CACHE_WRITES } from './cache-breakpoints'
import { cacheModelOf, DEFAULT_MINIMUM_CACHEABLE_TOKENS, openAIBreakpointPositions, prefixesOf, type SimulatedCache } from './cache-models'

/**
 * One unit of a request's prefix, in the order the provider reads it (tools → system → messages).
 * Two requests share a cached prefix exactly as far as their blocks' `id`s agree, so an id must
 * change whenever the block's bytes do (see `anthropicCacheBlocks`, `openAICacheBlocks`).
 */
export interface CacheBlock {
  readonly id: string
  readonly tokens: number
  /**
   * A breakpoint on this block: an Anthropic `cache_control` by its TTL, or `30m` for an OpenAI
   * `prompt_cache_breakpoint` (its only TTL).
   */
  readonly breakpoint?: '5m' | '1h' | '30m'
}

/** One model request as the simulator sees it. */
export interface CacheSimulationRequest {
  /** When it was sent, in milliseconds on any clock; requests must come in ascending order. */
  readonly at: number
  readonly blocks: readonly CacheBlock[]
  /** Anthropic's automatic mode (a top-level `cache_control`): a breakpoint on the last block, with this TTL. */
  readonly automatic?: '5m' | '1h'
  /**
   * OpenAI `prompt_cache_options.mode`: `implicit` keeps OpenAI's own breakpoint on the latest message
   * (one of the request's 4 writes), `explicit` caches only at marked blocks. Default `implicit`.
   */
  readonly openAIMode?: 'implicit' | 'explicit'
  /** Output tokens, priced when given. Default 0. */
  readonly outputTokens?: number
}

/** What the provider would bill for one request's prompt, and the cost at list prices. */
export interface SimulatedCacheUsage {
  /** Every prompt token: `readTokens + writeTokens + uncachedTokens`. */
  readonly inputTokens: number
  /** Served from the cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`, Gemini `cachedContentTokenCount`). */
  readonly readTokens: number
  /**
   * Written to the cache at a surcharge (Anthropic `cache_creation_input_tokens`, OpenAI
   * `cache_write_tokens`; always 0 for OpenAI models that cache by prefix).
   */
  readonly writeTokens: number
  /** Billed at the plain input price. */
  readonly uncachedTokens: number
  /** Dollars at list prices, input and output; `undefined` when the model has no price. */
  readonly cost: number | undefined
  /** The same request with no caching at all, for comparison; `undefined` without a price. */
  readonly costWithoutCache: number | undefined
}

export interface SimulatePromptCacheOptions {
  readonly provider: 'anthropic' | 'openai' | 'gemini'
  /** A model id known to `modelInfo` (its pricing and minimum cacheable length are used), or the info itself. */
  readonly model: string | ModelInfo
  /**
   * How long an OpenAI cache entry lives without use. OpenAI documents 5–10 minutes of inactivity
   * (up to an hour); the default takes the short end so predicted hits are ones to expect.
   * Default 300,000 (5 minutes). Anthropic entries live exactly their breakpoint's TTL.
   */
  readonly openAIRetentionMs?: number
  /**
   * How the OpenAI model caches. `prefix` (models before GPT-5.6): every request of 1,024 tokens or
   * more is cached at every block boundary, read in 128-token steps, with no write surcharge.
   * `breakpoints` (GPT-5.6 and later): entries are written only at breakpoints (the marked blocks and,
   * in implicit mode, the last block), at most 4 per request and billed as writes; a request reads the
   * longest live entry that is a prefix of it, whole, among the 50 most recently used; entries live 30
   * minutes. Default: `breakpoints` for models `openAITakesCacheBreakpoints` accepts, else `prefix`.
   */
  readonly openAICaching?: 'prefix' | 'breakpoints'
  /**
   * How long a Gemini implicit cache entry lives without use. Google documents no figure ("send
   * requests with a similar prefix in a short amount of time"); the default assumes the short end
   * of the other providers'. Default 300,000 (5 minutes).
   */
  readonly geminiRetentionMs?: number
}

export { OPENAI_BREAKPOINT_ENTRIES_READ, OPENAI_CACHE_INCREMENT_TOKENS } from './cache-models'

/**
 * Replays consecutive requests against a model of each provider's prompt cache and returns, per
 * request, the tokens it would read from cache, write to cache and bill uncached, and the cost at
 * list prices (`ModelPricing`). Pure: no clock (timestamps are inputs), no I/O; the same input gives
 * the same output.
 *
 * Anthropic: only breakpoints cache. A breakpoint reads the longest prefix that ends at its own block
 * or up to `CACHE_LOOKBACK_BLOCKS` blocks before it and has a live entry; the request writes every
 * breakpoint's prefix past what it read (billed at that breakpoint's TTL rate); prefixes shorter than
 * the model's minimum are neither read nor written; a read refreshes the entry's TTL.
 * OpenAI, by prefix (before GPT-5.6): every request of at least 1,024 tokens is cached at every
 * block boundary; a request reads the longest live prefix, rounded down to 1,024 + a multiple of 128
 * tokens; no write surcharge. OpenAI at breakpoints (GPT-5.6 and later): see `openAICaching`.
 * Gemini (implicit caching, 2.5 and later): a request of at least the model's minimum reads the
 * longest live prefix at a block boundary, whole, and is cached at every boundary; no write
 * surcharge; entries live `geminiRetentionMs`. Google calls it best effort: treat hits as an upper bound.
 *
 * Throws `InvalidCacheSimulationError` for requests out of time order, negative token counts or more
 * than 4 Anthropic breakpoints in one request.
 */
export function simulatePromptCache(requests: readonly CacheSimulationRequest[], options: SimulatePromptCacheOptions): SimulatedCacheUsage[] {
  const simulator = createPromptCacheSimulator(options)
  return requests.map((request) => simulator.next(request))
}

/** `simulatePromptCache` one request at a time, for long sessions that should not hold every request. */
export interface PromptCacheSimulator {
  /** Replays the next request (timestamps ascending) and returns what it would be billed. */
  next(request: CacheSimulationRequest): SimulatedCacheUsage
}

export function createPromptCacheSimulator(options: SimulatePromptCacheOptions): PromptCacheSimulator {
  const info = typeof options.model === 'string' ? modelInfo(options.model) : options.model
  const pricing = info.pricing
  const openAICaching = options.openAICaching ?? (openAITakesCacheBreakpoints(info.id) ? 'breakpoints' : 'prefix')
  const cache: SimulatedCache = {
    minimum: pricing?.minimumCacheableTokens ?? DEFAULT_MINIMUM_CACHEABLE_TOKENS,
    entries: new Map(),
    recentEntries: new Map(),
  }
  const provider = cacheModelOf(options, openAICaching)
  let previousAt = Number.NEGATIVE_INFINITY
  let index = 0

  const next = (request: CacheSimulationRequest): SimulatedCacheUsage => {
    validate(request, index++, previousAt, options.provider, openAICaching)
    previousAt = request.at
    // Entries that expired can never be read again: dropping them keeps memory bounded on long sessions.
    if (cache.entries.size > 4_096) for (const [key, entry] of cache.entries) if (entry.expiresAt < request.at) cache.entries.delete(key)
    const prefixes = prefixesOf(request.blocks)
    const total = prefixes.sums[prefixes.sums.length - 1] as number
    const { readTokens, writeTokens, writeLongTokens } = provider(cache, request, prefixes)
    const cachedWrites = writeTokens + writeLongTokens
    const uncachedTokens = total - readTokens - cachedWrites
    return {
      inputTokens: total,
      readTokens,
      writeTokens: cachedWrites,
      uncachedTokens,
      cost:
        pricing === undefined
          ? undefined
          : costOf(pricing, { uncachedTokens, readTokens, writeTokens, writeLongTokens, outputTokens: request.outputTokens ?? 0 }),
      costWithoutCache:
        pricing === undefined ? undefined : (total * pricing.inputPerMillion + (request.outputTokens ?? 0) * pricing.outputPerMillion) / 1_000_000,
    }
  }
  return { next }
}

function costOf(
  pricing: ModelPricing,
  tokens: { uncachedTokens: number; readTokens: number; writeTokens: number; writeLongTokens: number; outputTokens: number },
): number {
  const input = pricing.inputPerMillion
  return (
    (tokens.uncachedTokens * input +
      tokens.readTokens * (pricing.cacheReadPerMillion ?? input) +
      tokens.writeTokens * (pricing.cacheWritePerMillion ?? input) +
      tokens.writeLongTokens * (pricing.cacheWriteLongPerMillion ?? pricing.cacheWritePerMillion ?? input) +
      tokens.outputTokens * pricing.outputPerMillion) /
    1_000_000
  )
}

function validate(
  request: CacheSimulationRequest,
  index: number,
  previousAt: number,
  provider: 'anthropic' | 'openai' | 'gemini',
  openAICaching: 'prefix' | 'breakpoints',
): void {
  if (!Number.isFinite(request.at) || request.at < previousAt) {
    throw new InvalidCacheSimulationError(
      index,
      `at ${request.at} comes before the previous request's ${previousAt}; pass requests in the order they were sent`,
    )
  }
  for (const block of request.blocks) {
    if (!Number.isFinite(block.tokens) || block.tokens < 0)
      throw new InvalidCacheSimulationError(
        index,
        `block "${block.id.slice(0, 40)}" has ${block.tokens} tokens; counts must be finite and not negative`,
      )
  }
  if (provider === 'anthropic') {
    const count = request.blocks.filter((block) => block.breakpoint !== undefined).length + (request.automatic === undefined ? 0 : 1)
    if (count > MAX_CACHE_BREAKPOINTS)
      throw new InvalidCacheSimulationError(index, `${count} cache breakpoints; Anthropic rejects more than ${MAX_CACHE_BREAKPOINTS}`)
    if (request.blocks.some((block) => block.breakpoint === '30m'))
      throw new InvalidCacheSimulationError(index, 'a block carries an OpenAI breakpoint (30m); Anthropic breakpoints are 5m or 1h')
  } else if (provider === 'openai' && openAICaching === 'breakpoints') {
    const writes = openAIBreakpointPositions(request).length
    if (writes > MAX_OPENAI_CACHE_WRITES)
      throw new InvalidCacheSimulationError(
        index,
        `${writes} cache breakpoints (the implicit one on the latest message included); OpenAI writes at most ${MAX_OPENAI_CACHE_WRITES} per request`,
      )
  }
}
