export type {
  ModelClient,
  ModelClientProvider,
  ModelRequest,
  ModelStreamEvent,
  ModelStreamEventType,
  StopReason,
  ToolCallEvent,
} from './model/model-client'
export type { Usage } from '@threadlens/core/calls'
export type { OpenAICompatibleOptions } from './model/openai-compatible'
export { openAICompatible } from './model/openai-compatible'
export type { AnthropicOptions } from './model/anthropic'
export { anthropic } from './model/anthropic'
export type { ModelSummarizerOptions } from './model/model-summarizer'
export { modelSummarizer, DEFAULT_SUMMARIZER_INSTRUCTIONS } from './model/model-summarizer'
export type { ModelReply } from './model/collect-reply'
export { collectModelReply } from './model/collect-reply'
export type { RetryOptions } from './model/retry'
export type { RetryNotice } from './model/stream-with-retries'
export type { FetchFunction } from './model/http-stream'
export type { ProviderErrorDetails } from './model/errors'
export {
  ProviderError,
  ProviderAuthError,
  RateLimitError,
  ContextTooLongError,
  ProviderServerError,
  ProviderRequestError,
  ProviderNetworkError,
  InvalidModelClientOptionsError,
} from './model/errors'

export type { DefineToolOptions, Tool, ToolContext } from './tools/define-tool'
export { defineTool } from './tools/define-tool'
export type { RecallToolArguments, RecallToolOptions } from './tools/recall-tool'
export { recallTool } from './tools/recall-tool'
export type { SendOptions, SessionOptions } from './session/session-options'
export { Session, createSession } from './session/create-session'
export type { SessionEvent, SessionEventType } from './session/session-events'
export { SessionBusyError, ThreadBusyError } from './session/errors'
export type { WaitForThreadOptions } from './session/thread-lock'
export { threadLockName } from './session/thread-lock'
