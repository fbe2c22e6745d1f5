/**
 * @threadlens/core/internal: what the other threadlens packages share (entry schemas, hashing,
 * append rules, token constants). Not part of the public API: it changes without notice.
 */

export type { EntryInputOf, MessagePayload } from '../entries/entry'
export { entryKinds } from '../entries/entry'
export { parseEntry, parseEntryInput } from '../entries/entry-schema'
export { jsonTextNestingExceeds, readJsonData } from '../entries/json-data'
export { utf8Length } from '../utils/utf8-length'
export { toolResultText, toolArgumentsText } from '../entries/entry-text'
export { entryRecallTerms, RECALL_TERMS_VERSION } from '../recall/entry-terms'
export { checkAppendRules } from '../entries/append-rules'
export type { ThreadId, EntryId } from '../entries/ids'
export { threadId, entryId } from '../entries/ids'
export { checkForkPoint, forkCopies } from '../entries/fork'
export { deepFreeze } from '../entries/deep-freeze'
export type { ForkInfo } from '../entries/thread'
export { extendThread, ingestEntries } from '../entries/thread'
export type { BuiltinCounterId, EncodingName } from '../tokens/token-counter'
export { afterFirstPaint } from '../tokens/after-first-paint'
export { estimatedCounterById, estimatedEncoding, estimatedTokenCounter, estimateIdEncoding } from '../tokens/estimated-counter'
export { counterNow, counterReady, counterSettled } from '../tokens/counter-source'
export {
  counterOutcome,
  loadedTokenCounter,
  heuristicCount,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
} from '../tokens/token-counter'
export { inputBudget } from '../policy/policy'
// A windowed read of a thread: the facts a store keeps beside it and the projector's cost model.
export type { ThreadFacts } from '../project/window-read'
export { emptyThreadFacts, foldThreadFacts, WindowRead } from '../project/window-read'
export type { ProjectInput } from '../project/types'
export type { AnthropicMessage, AnthropicTextBlock, AnthropicCacheControl } from '../formats/anthropic-messages'
export { Subscribable } from '../utils/subscribable'
export { hashJson } from '../utils/hash'
export { webLocks } from '../utils/web-locks'
// The one issue shape, and zod's issues in it for the schemas threadlens does not write: an app's tool
// parameters (the agent runs them with safeParse and formatIssues) and the AI SDK's message schemas (ai-sdk, safeParse).
export type { ValidationIssue } from '../validation/issues'
export { issuesText } from '../validation/issues'
export { formatIssues, safeParse } from '../validation/zod-issues'
// Core's readers, for the other packages' own options and rows (one schema language for the whole SDK).
export type { OptionalReader, Reader, Shape } from '../validation/readers'
// Thrown by the readers: a reader that catches what it calls (a getter's error) lets it through.
export { Invalid } from '../validation/invalid'
export {
  array,
  boolean,
  custom,
  fail,
  flag,
  int,
  jsonObject,
  looseObject,
  nullable,
  number,
  object,
  oneOf,
  optional,
  read,
  record,
  string,
  union,
  withDefault,
} from '../validation/readers'
export { problemIssue } from '../validation/issues'
export { callAttemptReader } from '../calls/call-attempt-schema'
export { tokenCalibrationReader } from '../calls/calibration'
export { entryRefsReader } from '../entries/entry-readers'
export { memoryIdReader, memoryReader } from '../memory/memory'
export { idleSessionSnapshot } from '../session/session-snapshot'
// A session's memory hysteresis as one pure step (it projects, so it is not on the lighter /caching subpath).
export { projectHoldingMemory } from '../memory/project-holding-memory'
