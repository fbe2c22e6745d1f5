/** @threadlens/core/caching: provider prompt caching: where breakpoints go, what a request caches, and a simulator to check it. */

export type { CachePolicy } from '../policy/policy'
export type {
  CacheBlock,
  CacheSimulationRequest,
  SimulatedCacheUsage,
  SimulatePromptCacheOptions,
  PromptCacheSimulator,
} from '../caching/simulate-prompt-cache'
export { simulatePromptCache, createPromptCacheSimulator, OPENAI_CACHE_INCREMENT_TOKENS } from '../caching/simulate-prompt-cache'
export type { CountText } from '../caching/cache-blocks'
export { anthropicCacheBlocks, openAICacheBlocks } from '../caching/cache-blocks'
export type { SharedPrefix } from '../caching/shared-prefix'
export { sharedPrefix } from '../caching/shared-prefix'
export type { CacheComparison, CacheVerdict, ReportedCacheUsage } from '../caching/compare-cache-usage'
export { compareCacheUsage } from '../caching/compare-cache-usage'
export type { CacheBreakpoint, CacheBreakpointReason } from '../project/types'
export type { CacheBreakpoints } from '../caching/cache-breakpoints'
export { cacheBreakpoints, MAX_CACHE_BREAKPOINTS, CACHE_LOOKBACK_BLOCKS } from '../caching/cache-breakpoints'
export type { ToOpenAIChatOptions, OpenAIChatCacheBreakpoint } from '../formats/openai-chat'
export { openAIChatCacheFields, openAITakesCacheBreakpoints } from '../formats/openai-chat'
export { MAX_OPENAI_CACHE_WRITES, MAX_OPENAI_EXPLICIT_BREAKPOINTS } from '../caching/cache-breakpoints'
export { anthropicToolId, anthropicToolsCacheControl } from '../formats/anthropic-messages'
export { openAIChatProblems, anthropicMessagesProblems } from '../formats/provider-rules'
export type { HeldMemory, MemoryChoice, MemoryRefreshReason } from '../memory/memory-hold'
export { changedTokens, chooseMemoryText, memoryWindowKey, visibleTurns } from '../memory/memory-hold'
export { InvalidCacheSimulationError } from '../errors/threadlens-error'
