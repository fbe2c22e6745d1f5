import type { ContentPart, Entry, JsonObject } from '../entries/entry'
import type { TextPart } from '../entries/content-parts'
import type { Memory } from '../memory/memory'
import type { ThreadSource } from '../entries/thread'
import type { ContextPolicy } from '../policy/policy'
import type { CounterId, TokenCounter, ToolSchema } from '../tokens/token-counter'
import type { RecallMeta, RecallSearcher } from './recall-types'

export type { RecallHit, RecallMeta, RecallPhase, RecallRequest, RecallSearch, RecallSearcher, RecallSkip } from './recall-types'

/** Where a projected message comes from, in request order. */
export type Segment = 'system' | 'memory' | 'summary' | 'history' | 'pending' | 'recall'
export const segments: readonly Segment[] = ['system', 'memory', 'summary', 'history', 'pending', 'recall']

export interface ProjectedToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: JsonObject
  /** The arguments as the text the call came with, when it kept one (`ToolCallPayload.argumentsText`). */
  readonly argumentsText?: string
}

/**
 * What a message may carry beside its text: the speaker's `name`, and `parts` when its content is
 * a list of parts (then `content` is their text, `partsText(parts)`).
 */
export interface ProjectedMessageExtras {
  readonly name?: string
  readonly parts?: readonly ContentPart[]
}

/** Provider-neutral messages; `formats` turns them into each provider's request shape. */
export type ProjectedMessage =
  | ({ readonly role: 'system'; readonly content: string } & ProjectedMessageExtras)
  | ({ readonly role: 'user'; readonly content: string } & ProjectedMessageExtras)
  | ({
      readonly role: 'assistant'
      readonly content: string
      readonly toolCalls?: readonly ProjectedToolCall[]
      readonly refusal?: string
    } & ProjectedMessageExtras)
  | {
      readonly role: 'tool'
      readonly toolCallId: string
      readonly name: string
      readonly content: string
      readonly isError?: true
      /** The result's text parts, when it was stored as parts and is sent whole (`content` is their text). */
      readonly parts?: readonly TextPart[]
    }

/** A message not yet in the thread (e.g. the user's message about to be sent). Always projected. */
export interface PendingMessage {
  readonly role: 'user' | 'assistant' | 'system'
  /** Its text; with `parts`, exactly `partsText(parts)`. */
  readonly content: string
  readonly name?: string
  /** Text, images and files, in order (images and files only from the user). */
  readonly parts?: readonly ContentPart[]
}

export interface ProjectInput {
  /** A `Thread`, or entries in seq order. */
  readonly thread: ThreadSource | readonly Entry[]
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly pending?: readonly PendingMessage[]
  /** Tool schemas the request will carry; their tokens come out of the budget. */
  readonly tools?: readonly ToolSchema[]
  /**
   * The memory segment: text as is, or a `Memory` whose `policy.memorySpaces` are rendered within
   * `policy.memoryMaxTokens`.
   */
  readonly memory?: string | Memory
  /**
   * Where `policy.recall` finds the older entries most relevant to the newest user message:
   * `createRecallIndex()` from `@threadlens/core/recall`, one per thread. Without it recall is
   * skipped (`meta.recall.skipped: 'no-index'`) and its share of the budget goes to the window.
   */
  readonly recall?: RecallSearcher
}

/** Why an entry is not in the projection. */
export type DropReason =
  /** before the newest `reset` context op */
  | 'reset'
  /** its kind is not in `policy.includeKinds` */
  | 'kind'
  /** a `context_op`: applied to the projection, never sent itself */
  | 'applied'
  /** a summary older than the one in use */
  | 'superseded'
  /** a summary not sent because every entry it covers fits and is sent as it is */
  | 'unneeded'
  /** outside `maxTurns` / `maxMessages` */
  | 'window'
  /** cut early by a cache-friendly window so the prompt prefix stays stable (see `cacheFriendly`) */
  | 'cache-window'
  /** tool traffic of an older request, left out by `toolTrace: 'boundary'` (its outcome stays) */
  | 'isolated'
  /** did not fit the token budget */
  | 'budget'
  /** a tool call with no result under `unresolvedToolCalls: 'drop'` */
  | 'unresolved'
  /** a tool result whose call is not in the projected part of the thread */
  | 'orphan'

/** How a present tool result was shortened (its call and place are kept). */
export type Reduction =
  /** replaced by a placeholder naming tool, call id and size (`toolTrace: 'masked'`) */
  | 'masked'
  /** replaced by a reference to a newer identical result (`dedupeToolResults`) */
  | 'deduped'
  /** cut to head and tail with a marker (`pruneToolOutputsOverTokens`) */
  | 'pruned'

export interface DroppedRange {
  readonly fromSeq: number
  readonly toSeq: number
  readonly reason: DropReason
}

export interface MessageInfo {
  readonly segment: Segment
  /** This message's tokens, overhead included. */
  readonly tokens: number
  /** Thread entries it was built from (empty for system prompt, memory and pending). */
  readonly seqs: readonly number[]
  /** Set for a tool message threadlens made up to answer an unresolved call. */
  readonly synthetic?: 'interrupted'
  /** Set when this tool message carries a shortened result. */
  readonly reduced?: Reduction
  /** Of `tokens`, what its images and files cost; absent when it has none. */
  readonly attachmentTokens?: number
  /** Images left out of this message by `policy.keepImagesTurns` (kept in the thread): their part indexes. */
  readonly omittedImages?: readonly number[]
}

export type NeedsSummaryReason =
  /** the mandatory part alone does not fit */
  | 'overflow'
  /** history was dropped by budget, window or a cache-friendly window, and no summary covers it */
  | 'history-dropped'
  /**
   * the conversation content (all but system prompt and tool schemas) takes at least
   * `summarizeAtRatio` of the room the budget leaves it (`decideCompaction` uses the same rule)
   */
  | 'over-threshold'

export interface ProjectionTokens {
  readonly system: number
  readonly memory: number
  readonly summary: number
  readonly history: number
  /** The recall block (`policy.recall`): older entries relevant to the newest user message. */
  readonly recall: number
  readonly pending: number
  readonly tools: number
  readonly total: number
  /**
   * Images and files, counted by the larger of both providers' documented rules (see
   * `attachmentTokens`): a part of `history` and `pending` shown on its own, not added to `total` again.
   */
  readonly attachments: number
  /**
   * `true` when the counts are an estimate (the counter is not exact: `estimatedTokenCounter`
   * while the exact ranks load, or a heuristic); such counts carry a margin that keeps the request
   * within the budget, so the window looks fuller than it is. Show them with an "≈".
   */
  readonly estimated: boolean
}

/** Why a prompt-cache breakpoint sits where it does. */
export type CacheBreakpointReason =
  /** the end of the tool schemas and the system prompt: the same on every call */
  | 'tools-and-system'
  /** the end of the fixed segments (memory, summary checkpoint) that open the window */
  | 'stable-base'
  /** where the previous batch of reductions stopped: the prefix before a new batch stays readable */
  | 'previous-stable'
  /** the newest history message whose bytes later calls keep (older than the zone reductions may still change) */
  | 'newest-stable'
  /** the end of the request: the next call repeats all of it and appends */
  | 'request-end'
  /** where the previous call's request ended, when the newest turn adds more blocks than a breakpoint looks back */
  | 'lookback-bridge'

export interface CacheBreakpoint {
  /**
   * Index in `messages` of the message whose last block carries the breakpoint, or `'tools'` for the
   * last tool schema (only when there is no system prompt).
   */
  readonly at: number | 'tools'
  readonly reason: CacheBreakpointReason
  readonly ttl: '5m' | '1h'
}

/**
 * How the request asks providers to cache its prefix (from `policy.cache`), and what placing the
 * breakpoints needs from inside the projection: `cacheBreakpoints(result)` places them.
 */
export interface ProjectionCache {
  /** Anthropic mode; with `auto` the request also carries a top-level `cache_control`. */
  readonly anthropic: 'explicit' | 'auto' | 'off'
  /** TTL of the automatic breakpoint under `auto`, and of the breakpoints on tools, system and the stable base. */
  readonly ttl: '5m' | '1h'
  /** OpenAI's `prompt_cache_key`: `policy.cache.openAIKey`, else the thread id; `undefined` sends none. */
  readonly key: string | undefined
  /** OpenAI explicit breakpoints (`policy.cache.openAI`): `auto` places them, `off` none. */
  readonly openAI: 'auto' | 'off'
  /**
   * Where reductions (masking, pruning, dedupe, isolation) stop: results from this seq on are sent whole.
   * Lower than the protected zone while reductions wait for the cache window to move.
   */
  readonly reductionFloor: number
  /** Where the batch of reductions before this one stopped, when reductions come in batches (`cache.reduceEveryTurns`). */
  readonly previousReductionFloor: number | undefined
  /** Whether the policy rewrites history already sent (masks, isolates, dedupes or prunes tool results) once it leaves the protected zone. */
  readonly reducesLater: boolean
}

export interface ProjectionMeta {
  readonly tokens: ProjectionTokens
  readonly budget: {
    readonly maxInputTokens: number
    readonly reserveOutputTokens: number
    /** `maxInputTokens - reserveOutputTokens`: what the request may use. */
    readonly input: number
    /** `input - tokens.total`; negative only with `overflow`. */
    readonly free: number
  }
  readonly counter: { readonly id: CounterId; readonly exact: boolean }
  /** One record per projected message, same order. */
  readonly messages: readonly MessageInfo[]
  /** Seqs of the thread entries present, ascending (some maybe shortened: see `reduced`). */
  readonly includedSeqs: readonly number[]
  /** Present tool results sent shortened, ascending by seq. */
  readonly reduced: readonly { readonly seq: number; readonly how: Reduction }[]
  /** Every other entry, as ascending ranges with the reason (entries covered by the summary in use excepted). */
  readonly dropped: readonly DroppedRange[]
  /** The summary checkpoint in use (set exactly when `summaryUsed`): entries `fromSeq..toSeq` not present raw are covered by it. */
  readonly summary: { readonly seq: number; readonly fromSeq: number; readonly toSeq: number } | undefined
  readonly summaryUsed: boolean
  /** Recall (`policy.recall`): what it searched for and sent, or why it sent nothing; `undefined` when the policy has no recall. */
  readonly recall: RecallMeta | undefined
  /** The memory segment: which spaces were rendered and which left out; `undefined` without memory. */
  readonly memory:
    | { readonly rev: number | undefined; readonly spaces: readonly string[]; readonly omitted: readonly string[]; readonly dropped: boolean }
    | undefined
  /** History was cut by budget or window. */
  readonly truncated: boolean
  readonly needsSummary: boolean
  readonly needsSummaryReason: NeedsSummaryReason | undefined
  /** The mandatory part (system, tools, pending, latest user message) alone exceeds the budget. */
  readonly overflow: boolean
  /** Tool calls in the thread with no result (whatever the policy did with them). */
  readonly unresolvedToolCalls: readonly { readonly toolCallId: string; readonly name: string; readonly seq: number }[]
  /** Seqs pinned at projection time. */
  readonly pinnedSeqs: readonly number[]
  /**
   * Identifies the stable prefix: fixed segments, where history starts, and which earlier messages
   * were shortened. Equal keys on consecutive calls mean the later request repeats the earlier one
   * byte for byte up to the earlier one's latest user message — what providers bill as a cached prompt.
   */
  readonly prefixKey: string
  /** Prompt-cache breakpoints and keys the formats put on the wire. */
  readonly cache: ProjectionCache
  /** Where a cache-friendly window started history, when it had to cut. */
  readonly cacheWindowStart: number | undefined
  /** Number of entries in the thread when projected (with `firstSeq`, identifies the thread version). */
  readonly entryCount: number
  readonly firstSeq: number
}

export interface ProjectionResult {
  readonly messages: readonly ProjectedMessage[]
  readonly meta: ProjectionMeta
}
