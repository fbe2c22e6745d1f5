/** @threadlens/core/caching: provider prompt caching: where breakpoints go, what a request caches, and a simulator to check it. */

export type { CachePolicy } from '../policy/policy'
export type {
  CacheBlock,
  CacheSimulationRequest,
  SimulatedCacheUsage,
  SimulatePromptCacheOptions,
  PromptCacheSimulator,
} from './simulate-prompt-cache'
export { simulatePromptCache, createPromptCacheSimulator, OPENAI_CACHE_INCREMENT_TOKENS } from './simulate-prompt-cache'
export type { CountText } from './cache-blocks'
export { anthropicCacheBlocks, openAICacheBlocks } from './cache-blocks'
export type { SharedPrefix } from './shared-prefix'
export { sharedPrefix } from './shared-prefix'
export type { CacheComparison, CacheVerdict, ReportedCacheUsage } from './compare-cache-usage'
export { compareCacheUsage } from './compare-cache-usage'
export type { CacheBreakpoint, CacheBreakpointReason } from '../project/types'
export type { CacheBreakpoints } from './cache-breakpoints'
export { cacheBreakpoints, MAX_CACHE_BREAKPOINTS, CACHE_LOOKBACK_BLOCKS } from './cache-breakpoints'
export type { ToOpenAIChatOptions, OpenAIChatCacheBreakpoint } from '../formats/openai-chat'
export { openAIChatCacheFields, openAITakesCacheBreakpoints } from '../formats/openai-chat'
export { MAX_OPENAI_CACHE_WRITES, MAX_OPENAI_EXPLICIT_BREAKPOINTS } from './cache-breakpoints'
export { anthropicToolId, anthropicToolsCacheControl } from '../formats/anthropic-messages'
export { openAIChatProblems, anthropicMessagesProblems } from '../formats/provider-rules'
export type { HeldMemory, MemoryChoice, MemoryRefreshReason } from '../memory/memory-hold'
export { changedTokens, chooseMemoryText, memoryWindowKey, visibleTurns } from '../memory/memory-hold'
export { InvalidCacheSimulationError } from '../errors/threadlens-error'
