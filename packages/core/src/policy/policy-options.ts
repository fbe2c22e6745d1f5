import type { EntryKind } from '../entries/entry'

// The options of a context policy, documented once here (`CacheFields`, `PolicyFields`): what
// `definePolicy` takes (`PolicyOptions`, every option optional) and what it returns
// (`ContextPolicy`, defaults filled in). policy.ts checks them.

/**
 * How requests ask providers to cache their prompt prefix (see docs/caching.md). Every field has a
 * default, so `cache: {}` (or leaving `cache` out) gives explicit Anthropic breakpoints, a 5-minute
 * TTL and the thread id as OpenAI's `prompt_cache_key`.
 */
export interface CacheFields {
  /**
   * Anthropic caches only what `cache_control` marks. `explicit`: the projection places up to 4
   * block breakpoints (end of tools + system, the window's stable base, the newest stable message,
   * the end of the request) and `cacheBreakpoints(result).anthropic` says where and why. `auto`: the tools +
   * system breakpoint plus the API's top-level automatic mode, which caches up to the last block.
   * `off`: no `cache_control` at all. Default `explicit`.
   */
  readonly anthropic: 'explicit' | 'auto' | 'off'
  /**
   * TTL of the long-lived breakpoints (tools + system, the stable base). `1h` writes cost 2× base input
   * instead of 1.25×, so it pays only when calls are more than 5 minutes apart but under an hour.
   * Breakpoints in the history always use 5 minutes (the API needs longer TTLs first). Default `5m`.
   */
  readonly ttl: '5m' | '1h'
  /**
   * OpenAI's `prompt_cache_key`: requests with the same key are routed to the same cache. Default: the
   * thread id. `false` sends none. Never put secrets or personal data in it.
   */
  readonly openAIKey: string | false
  /**
   * OpenAI's explicit cache breakpoints (`prompt_cache_breakpoint` on a content part; GPT-5.6 and
   * later only match a cache entry at a breakpoint). `auto`: `cacheBreakpoints(result).openAI` lists
   * where they go (the end of the system prompt, the window's stable base, the
   * newest stable message — up to 3, beside the implicit one OpenAI keeps on the latest message) and
   * `toOpenAIChat` sends them when the client's model accepts them. `off`: none. Default `auto`.
   */
  readonly openAI: 'auto' | 'off'
  /**
   * With `cacheFriendly`, reductions of tool results that left the last `keepLastTurns` turns
   * (masking, pruning, dedupe, isolation) can come in batches — once every this many turns, and
   * whenever the cache window moves — so fewer calls rewrite an already cached message. 1 reduces every
   * turn: with the breakpoints above the reductions, a rewrite costs only the last turns, and the
   * context-quality bench measures that cheapest under both providers' billing (docs/caching.md).
   * Default 1.
   */
  readonly reduceEveryTurns: number
  /**
   * With `cacheFriendly`, the memory segment (sent before the summary and history) is re-rendered in
   * step with the cache window instead of on every memory revision: a session keeps the text it last
   * sent and sends it again until the window or the summary checkpoint moves, the memory changes by
   * more than `memoryRefreshTokens`, or this many turns have passed — so a stale memory is never sent
   * in more than this many consecutive turns. 1 renders it fresh on every call. Default 1: an agent
   * that just saved a note sees it on its next call; 3–4 trades that for fewer cache rewrites.
   */
  readonly memoryHoldTurns: number
  /**
   * A memory change larger than this many tokens (what the new text adds or removes) is sent at once,
   * even between window moves. Default 200.
   */
  readonly memoryRefreshTokens: number
}

/** Every policy option with the type of its value. */
export interface PolicyFields {
  /** The model's context window in tokens (input + output). Default 8192. */
  readonly maxInputTokens: number
  /** Tokens kept free for the reply; the input budget is `maxInputTokens - reserveOutputTokens`. Default 1024. */
  readonly reserveOutputTokens: number
  /** At most this many history messages (a tool call message and each result count one). Default: no limit. */
  readonly maxMessages: number
  /** At most this many turns (a turn starts at a user message). Default: no limit. */
  readonly maxTurns: number
  /** Newest turns that compaction never summarizes, masks or prunes. Default 2. */
  readonly keepLastTurns: number
  /** Entry kinds that may appear in projections (`context_op` is applied, never shown). Default all but `context_op`. */
  readonly includeKinds: readonly EntryKind[]
  /** Role of the summary message. Default `system`. */
  readonly summaryRole: 'system' | 'user'
  /** Text put before a summary's content. Default `Summary of the earlier conversation:\n`. */
  readonly summaryPrefix: string
  /** The system prompt, first in every projection. Default: none. */
  readonly systemPrompt: string
  /** Tool calls with no result: `drop` them, or `interrupt` (answer with a synthetic result). Default `interrupt`. */
  readonly unresolvedToolCalls: 'drop' | 'interrupt'
  /** The synthetic result text for `interrupt`. */
  readonly interruptedResultText: string
  /**
   * `needsSummary` turns on (and `decideCompaction` says compact) when the conversation content takes
   * this share of the input budget left after the system prompt and tool schemas. Default 0.8.
   */
  readonly summarizeAtRatio: number
  /**
   * Tool traffic of older requests (outside the last `keepLastTurns` turns, unpinned, resolved):
   * `transparent` keeps it, `boundary` keeps only its outcome (the assistant's text),
   * `masked` keeps the calls and replaces results with a placeholder naming tool, call id and size.
   * Default `transparent`.
   */
  readonly toolTrace: 'transparent' | 'boundary' | 'masked'
  /** Older identical tool results (same tool, arguments and output) become a reference to the newest. Default false. */
  readonly dedupeToolResults: boolean
  /** Older tool results over this many tokens are cut to head and tail with a marker. Default: never. */
  readonly pruneToolOutputsOverTokens: number
  /** Lines a pruned tool result keeps (head and tail together). Default 20. */
  readonly pruneKeepLines: number
  /** UTF-8 bytes a pruned tool result keeps (head and tail together). Default 2000. */
  readonly pruneKeepBytes: number
  /**
   * Cache-friendly windows: when history must be cut, cut it in chunks down to `cacheLowWaterRatio`
   * of the history budget, so following calls keep a byte-identical prefix that providers bill
   * as cached. Default false (the presets turn it on).
   */
  readonly cacheFriendly: boolean
  /** How far a cache-friendly window falls back when it moves, as a share of the history budget. Default 0.6. */
  readonly cacheLowWaterRatio: number
  /** Prompt caching on the wire: breakpoints, TTL, OpenAI cache key. Default: see `CacheFields`. */
  readonly cache: CacheOptions
  /** Tool output longer than this many UTF-8 bytes is truncated before it enters the thread. Default 32000. */
  readonly toolOutputMaxBytes: number
  /** Tool output longer than this many lines is truncated before it enters the thread. Default 1000. */
  readonly toolOutputMaxLines: number
  /** Which part of long tool output to keep. Default `head-tail`. */
  readonly toolOutputKeep: 'head' | 'tail' | 'head-tail'
  /**
   * Images of messages before the newest this-many turns are left out of projections (kept in the
   * thread; `meta.messages[i].omittedImages` names them, and the text stays). Pinned messages keep
   * theirs. Default: every image is sent.
   */
  readonly keepImagesTurns: number
  /**
   * Recall: part of the budget goes to the older entries most relevant to the newest user message,
   * found by the `recall` searcher given to `project()` (`createRecallIndex()`), sent in one marked
   * block at the end of the request. Default: off; `recall: {}` turns it on with the defaults.
   */
  readonly recall: RecallFields
  /** Memory spaces rendered into the memory segment, in this order. Default: none. */
  readonly memorySpaces: readonly string[]
  /** Token cap of the rendered memory segment; spaces that do not fit are left out whole. Default 1000. */
  readonly memoryMaxTokens: number
  /** Counter this policy's budget was sized for; informational for callers. Default `o200k_base`. */
  readonly tokenizer: 'o200k_base' | 'cl100k_base' | 'heuristic'
  /** Model id the policy was made for, if any (see `policyForModel`). */
  readonly model: string
  /** A name shown in devtools (presets set it). */
  readonly name: string
}

/** How recall shares the budget and renders what it finds (see `PolicyFields.recall`). */
export interface RecallFields {
  /**
   * Share of the history room (the budget left after system prompt, tools, memory, summary, pending
   * and the latest user message) kept for recalled entries; the newest window gets the rest, and
   * recall also takes what the window leaves unused. Default 0.5.
   */
  readonly share: number
  /**
   * The recall block never takes more than this many tokens. It is chosen for each question, so it is
   * never read from a provider's prompt cache: the cap keeps a big window's requests mostly cached.
   * Default 4096.
   */
  readonly maxTokens: number
  /** Messages on each side of a hit sent with it (a question with its answer). Default 1. */
  readonly neighbors: number
  /** How many of the newest user messages make up the query. Default 1. */
  readonly queryTurns: number
  /** At most this many hits are considered, best first. Default 64. */
  readonly maxHits: number
  /** Each recalled message carries the date it was written (UTC), so "last week" can be placed. Default true. */
  readonly dates: boolean
  /** The line that opens the recall block. */
  readonly header: string
}

/** Cache options with no default: absent unless given. */
type OptionalCacheField = 'openAIKey'
/** Policy options with no default: absent unless given. */
type OptionalPolicyField =
  'maxMessages' | 'maxTurns' | 'systemPrompt' | 'pruneToolOutputsOverTokens' | 'keepImagesTurns' | 'recall' | 'model' | 'name'

/** The `cache` option of `definePolicy`: every field optional. */
export type CacheOptions = { readonly [K in keyof CacheFields]?: CacheFields[K] | undefined }
/** The cache options of a defined policy, defaults filled in. */
export type CachePolicy = Readonly<Omit<CacheFields, OptionalCacheField>> & Readonly<Partial<Pick<CacheFields, OptionalCacheField>>>
/** What `definePolicy` takes: every option is optional and has the default its comment names. */
export type PolicyOptions = { readonly [K in Exclude<keyof PolicyFields, 'recall'>]?: PolicyFields[K] | undefined } & {
  readonly recall?: RecallOptions | undefined
}
/** The `recall` option of `definePolicy`: every field optional. */
export type RecallOptions = { readonly [K in keyof RecallFields]?: RecallFields[K] | undefined }
/** The recall options of a defined policy, defaults filled in. */
export type RecallPolicy = Readonly<RecallFields>
/** A validated, frozen policy: plain data, safe to store and compare. */
export type ContextPolicy = Readonly<Omit<PolicyFields, OptionalPolicyField | 'cache'>> &
  Readonly<Partial<Pick<PolicyFields, OptionalPolicyField>>> & { readonly cache: CachePolicy }
