export {
  ThreadlensError,
  InvalidEntryError,
  InvalidIdError,
  InvalidPolicyError,
  InvalidMessagesError,
  BudgetOverflowError,
  RevisionConflictError,
  InvalidMemoryOperationError,
  TokenizerLoadError,
  ReplayError,
} from './errors/threadlens-error'

export type { CallRecord, Entry, EntryInput, EntryKind, EntryMeta, EntryRefs, JsonObject, JsonValue } from './entries/entry'

export { entryLimits } from './entries/json-data'
export type { CreateThreadOptions, ThreadSource } from './entries/thread'
export { Thread, createThread, forkThread } from './entries/thread'

export type { TokenCounter, ToolSchema } from './tokens/token-counter'
export { createTokenCounter, customTokenCounter } from './tokens/token-counter'

export type { ContextPolicy, PolicyOptions } from './policy/policy'
export { definePolicy, withPolicy } from './policy/policy'

export { presets } from './policy/presets'

export type { DropReason, MessageInfo, PendingMessage, ProjectedMessage, ProjectionMeta, ProjectionResult, Reduction, Segment } from './project/types'
export { segments } from './project/types'
export { project } from './project/project'

export type { OpenAIChatMessage } from './formats/openai-chat'
export { toOpenAIChat } from './formats/openai-chat'
export type { AnthropicMessagesRequest } from './formats/anthropic-messages'
export { toAnthropicMessages } from './formats/anthropic-messages'

export type { ThreadlensEvent } from './events'

export { decideCompaction } from './compaction/budget'
export type { Summarizer } from './compaction/summarizer'
export { extractiveSummarizer } from './compaction/extractive-summarizer'
export { compact } from './compaction/compact'

export type { Memory } from './memory/memory'

// Call records: type, writer, reader and replay of every model call and attempt.
export type { ReplayedCall } from './calls/replay-call'
export { replayCall } from './calls/replay-call'

export type { SessionRetry, SessionServerLimit, SessionSnapshot, SessionSource, SessionStatus } from './session/session-snapshot'
