export {
  ThreadlensError,
  InvalidEntryError,
  InvalidIdError,
  InvalidPolicyError,
  InvalidMessagesError,
  InvalidModelInfoError,
  InvalidCacheSimulationError,
  BudgetOverflowError,
  RevisionConflictError,
  InvalidMemoryOperationError,
  UnknownModelError,
  TokenizerLoadError,
  ReplayError,
} from './errors/threadlens-error'

export type {
  CallRecord,
  Entry,
  EntryInput,
  EntryInputOf,
  EntryKind,
  EntryMeta,
  EntryOf,
  EntryRefs,
  JsonObject,
  JsonValue,
  MessageEntry,
  MessagePayload,
  PayloadByKind,
  Role,
  SummaryEntry,
  SummaryPayload,
  ToolCallEntry,
  ToolCallPayload,
  ToolResultEntry,
  ToolResultPayload,
  ContextOpEntry,
  ContextOpName,
  ContextOpPayload,
} from './entries/entry'
export { entryKinds } from './entries/entry'
export { callRecordSchema, entrySchema, entryInputSchema, entryMetaSchema, entryRefsSchema, jsonValueSchema, jsonObjectSchema, parseEntry, parseEntryInput, readEntryData } from './entries/entry-schema'
export type { JsonDataProblem, JsonDataResult, ReadJsonDataOptions } from './entries/json-data'
export { entryLimits, jsonTextNestingExceeds, readJsonData } from './entries/json-data'
export { utf8Length } from './utils/utf8-length'
export { toolResultText, toolArgumentsText } from './entries/entry-text'
export type { AppendContext } from './entries/append-rules'
export { checkAppendRules } from './entries/append-rules'
export type { ThreadId, EntryId } from './entries/ids'
export { threadId, entryId } from './entries/ids'
export type { ThreadIndex } from './entries/thread-index'
export { indexOfEntries } from './entries/thread-index'
export type { CreateThreadOptions, ForkInfo, ThreadEvent, ThreadSource } from './entries/thread'
export { Thread, createThread } from './entries/thread'

export type { BuiltinCounterId, CounterId, EncodingName, TokenCounter, ToolSchema } from './tokens/token-counter'
export { tokenSegments } from './tokens/token-segments'
export {
  createTokenCounter,
  loadedTokenCounter,
  customTokenCounter,
  heuristicCount,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
} from './tokens/token-counter'

export type { ContextPolicy, PolicyOptions, CachePolicy } from './policy/policy'
export { definePolicy, withPolicy, inputBudget, policySchema, cachePolicySchema, DEFAULT_SUMMARY_PREFIX, DEFAULT_INTERRUPTED_RESULT } from './policy/policy'
export type { PresetName } from './policy/presets'
export type { ModelInfo, ModelPricing, ModelProvider, PolicyForModelOptions } from './policy/models'
export { modelInfo, listModels, registerModel, policyForModel, estimateCost, modelInfoSchema, APPROXIMATE_TOKENIZER_SAFETY_MARGIN } from './policy/models'
export { presets } from './policy/presets'

export type { CacheBlock, CacheSimulationRequest, SimulatedCacheUsage, SimulatePromptCacheOptions, PromptCacheSimulator } from './caching/simulate-prompt-cache'
export { simulatePromptCache, createPromptCacheSimulator, OPENAI_CACHE_INCREMENT_TOKENS } from './caching/simulate-prompt-cache'
export type { CountText } from './caching/cache-blocks'
export { anthropicCacheBlocks, openAICacheBlocks } from './caching/cache-blocks'
export type { CacheComparison, CacheVerdict, ReportedCacheUsage } from './caching/compare-cache-usage'
export { compareCacheUsage } from './caching/compare-cache-usage'

export type {
  DropReason,
  DroppedRange,
  MessageInfo,
  NeedsSummaryReason,
  PendingMessage,
  ProjectedMessage,
  ProjectedToolCall,
  ProjectInput,
  ProjectionMeta,
  ProjectionResult,
  ProjectionTokens,
  Reduction,
  Segment,
  CacheBreakpoint,
  CacheBreakpointReason,
  ProjectionCache,
} from './project/types'
export { MAX_CACHE_BREAKPOINTS, CACHE_LOOKBACK_BLOCKS } from './project/cache-breakpoints'
export { segments } from './project/types'
export { project } from './project/project'
export type { DebugViewOptions } from './project/debug-view'
export { debugView } from './project/debug-view'

export type {
  OpenAIChatMessage,
  OpenAIChatSystemMessage,
  OpenAIChatUserMessage,
  OpenAIChatAssistantMessage,
  OpenAIChatToolMessage,
  OpenAIChatToolCall,
} from './formats/openai-chat'
export { toOpenAIChat, openAIChatCacheFields } from './formats/openai-chat'
export type {
  AnthropicMessagesRequest,
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicCacheControl,
} from './formats/anthropic-messages'
export { toAnthropicMessages, anthropicToolId, anthropicToolsCacheControl } from './formats/anthropic-messages'
export type { FromOpenAIChatResult } from './formats/from-openai-chat'
export { fromOpenAIChat } from './formats/from-openai-chat'
export { openAIChatProblems, anthropicMessagesProblems } from './formats/provider-rules'

export type { ConversationMessage } from './views/conversation-view'
export { conversationView } from './views/conversation-view'
export type { ReasoningItem } from './views/reasoning-view'
export { reasoningView } from './views/reasoning-view'

export type { CompactionFailure, ThreadlensEvent, ThreadlensEventType } from './events'
export type { TruncateOptions, TruncateResult } from './compact/truncate'
export { truncateHead, truncateTail, truncateHeadTail } from './compact/truncate'
export type { ToolResultInputOptions } from './compact/tool-output'
export { toolResultInput } from './compact/tool-output'
export type { CompactionDecision, CompactionDecisionOptions } from './compact/budget'
export { ContextTokenBudget, decideCompaction, assertFits } from './compact/budget'
export type { Summarizer, SummarizeInput } from './compact/summarizer'
export { extractiveSummarizer } from './compact/extractive-summarizer'
export type { CompactOptions, CompactionPlan, CompactionResult } from './compact/compact'
export { compact, planCompaction } from './compact/compact'

export type {
  BuiltinSpaceName,
  ListSpace,
  MapSpace,
  Memory,
  MemorySpaces,
  Space,
  SpaceKind,
  Task,
  TaskSpace,
  TaskStatus,
} from './memory/memory'
export { builtinSpaceNames, memoryIdSchema, memorySchema, spaceNameSchema, spaceSchema, taskSchema } from './memory/memory'
export type { SpaceData, WriteOptions } from './memory/memory-operations'
export type { RenderedMemory } from './memory/render-memory'
export { renderMemory } from './memory/render-memory'
export type { HeldMemory, MemoryChoice, MemoryRefreshReason } from './memory/memory-hold'
export { changedTokens, chooseMemoryText, memoryWindowKey, visibleTurns } from './memory/memory-hold'
export type { MemoryProjector } from './memory/memory-projector'
export { applyMemoryProjectors, summaryToWorld, toolResultToWorld } from './memory/memory-projector'
export {
  createMemory,
  createSpace,
  deleteSpace,
  getSpace,
  isBuiltinSpace,
  mapDelete,
  mapPut,
  tasksAdd,
  tasksComplete,
  tasksInsert,
  tasksNext,
  tasksOpen,
  tasksRemove,
  tasksReorder,
  updateSpace,
  worldGet,
} from './memory/memory-operations'

export { Subscribable } from './utils/subscribable'
export { hashString, hashJson, HashBuilder } from './utils/hash'

// Call records: type, writer, reader and replay of every model call and attempt.
export type {
  CallAttempt,
  CallLog,
  CallAttemptError,
  CallAttemptStatus,
  CallHashes,
  CallRecordOptions,
  CallTiming,
  CallTraceRow,
  CalibrationSample,
  CalibrationVerdict,
  ReadCallRecord,
  ReplayCallOptions,
  ReplayedCall,
  ReportedUsage,
  TokenCalibration,
} from './calls/index'
export {
  addCalibrationSample,
  calibrationSampleOf,
  calibratedPromptBudget,
  calibrationDefaults,
  calibrationSampleSchema,
  calibrationVerdict,
  callAttemptSchema,
  callHashes,
  callRecord,
  callTrace,
  CallParts,
  maxAttemptErrorLength,
  readCallRecords,
  replayCall,
  StoredHashes,
  tokenCalibrationSchema,
} from './calls/index'
