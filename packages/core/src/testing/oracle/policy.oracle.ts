// TEST ONLY: the zod schema policies were validated with before the hand-written readers of
// policy/policy.ts; the property tests check both accept the same options with the same result.
import { z } from 'zod/mini'
import { InvalidPolicyError } from '../../errors/threadlens-error'
import { formatIssues, safeParse } from '../../validation/zod-issues'
import type { EntryKind } from '../../entries/entry'
import { DEFAULT_INTERRUPTED_RESULT, DEFAULT_SUMMARY_PREFIX } from '../../policy/policy'

const kindEnum = z.enum(['message', 'tool_call', 'tool_result', 'summary', 'context_op'])

/**
 * How requests ask providers to cache their prompt prefix (see docs/caching.md). Every field has a
 * default, so `cache: {}` (or leaving `cache` out) gives explicit Anthropic breakpoints, a 5-minute
 * TTL and the thread id as OpenAI's `prompt_cache_key`.
 */
export const cachePolicySchema = z.strictObject({
  /**
   * Anthropic caches only what `cache_control` marks. `explicit`: the projection places up to 4
   * block breakpoints (end of tools + system, the window's stable base, the newest stable message,
   * the end of the request) and `cacheBreakpoints(result).anthropic` says where and why. `auto`: the tools +
   * system breakpoint plus the API's top-level automatic mode, which caches up to the last block.
   * `off`: no `cache_control` at all. Default `explicit`.
   */
  anthropic: z._default(z.enum(['explicit', 'auto', 'off']), 'explicit'),
  /**
   * TTL of the long-lived breakpoints (tools + system, the stable base). `1h` writes cost 2× base input
   * instead of 1.25×, so it pays only when calls are more than 5 minutes apart but under an hour.
   * Breakpoints in the history always use 5 minutes (the API needs longer TTLs first). Default `5m`.
   */
  ttl: z._default(z.enum(['5m', '1h']), '5m'),
  /**
   * OpenAI's `prompt_cache_key`: requests with the same key are routed to the same cache. Default: the
   * thread id. `false` sends none. Never put secrets or personal data in it.
   */
  openAIKey: z.optional(z.union([z.string().check(z.minLength(1), z.maxLength(1024)), z.literal(false)])),
  /**
   * OpenAI's explicit cache breakpoints (`prompt_cache_breakpoint` on a content part; GPT-5.6 and
   * later only match a cache entry at a breakpoint). `auto`: `cacheBreakpoints(result).openAI` lists
   * where they go (the end of the system prompt, the window's stable base, the
   * newest stable message — up to 3, beside the implicit one OpenAI keeps on the latest message) and
   * `toOpenAIChat` sends them when the client's model accepts them. `off`: none. Default `auto`.
   */
  openAI: z._default(z.enum(['auto', 'off']), 'auto'),
  /**
   * With `cacheFriendly`, reductions of tool results that left the last `keepLastTurns` turns
   * (masking, pruning, dedupe, isolation) can come in batches — once every this many turns, and
   * whenever the cache window moves — so fewer calls rewrite an already cached message. 1 reduces every
   * turn: with the breakpoints above the reductions, a rewrite costs only the last turns, and the
   * context-quality bench measures that cheapest under both providers' billing (docs/caching.md).
   * Default 1.
   */
  reduceEveryTurns: z._default(z.int().check(z.positive()), 1),
  /**
   * With `cacheFriendly`, the memory segment (sent before the summary and history) is re-rendered in
   * step with the cache window instead of on every memory revision: a session keeps the text it last
   * sent and sends it again until the window or the summary checkpoint moves, the memory changes by
   * more than `memoryRefreshTokens`, or this many turns have passed — so a stale memory is never sent
   * in more than this many consecutive turns. 1 renders it fresh on every call. Default 1: an agent
   * that just saved a note sees it on its next call; 3–4 trades that for fewer cache rewrites.
   */
  memoryHoldTurns: z._default(z.int().check(z.positive()), 1),
  /**
   * A memory change larger than this many tokens (what the new text adds or removes) is sent at once,
   * even between window moves. Default 200.
   */
  memoryRefreshTokens: z._default(z.int().check(z.nonnegative()), 200),
})

/** The zod schema of every policy option, with its default. */
export const policySchema = z.strictObject({
    /** The model's context window in tokens (input + output). Default 8192. */
    maxInputTokens: z._default(z.int().check(z.positive()), 8192),
    /** Tokens kept free for the reply; the input budget is `maxInputTokens - reserveOutputTokens`. Default 1024. */
    reserveOutputTokens: z._default(z.int().check(z.nonnegative()), 1024),
    /** At most this many history messages (a tool call message and each result count one). Default: no limit. */
    maxMessages: z.optional(z.int().check(z.positive())),
    /** At most this many turns (a turn starts at a user message). Default: no limit. */
    maxTurns: z.optional(z.int().check(z.positive())),
    /** Newest turns that compaction never summarizes, masks or prunes. Default 2. */
    keepLastTurns: z._default(z.int().check(z.nonnegative()), 2),
    /** Entry kinds that may appear in projections (`context_op` is applied, never shown). Default all but `context_op`. */
    includeKinds: z._default(z.array(kindEnum), ['message', 'tool_call', 'tool_result', 'summary']),
    /** Role of the summary message. Default `system`. */
    summaryRole: z._default(z.enum(['system', 'user']), 'system'),
    /** Text put before a summary's content. Default `Summary of the earlier conversation:\n`. */
    summaryPrefix: z._default(z.string(), DEFAULT_SUMMARY_PREFIX),
    /** The system prompt, first in every projection. Default: none. */
    systemPrompt: z.optional(z.string()),
    /** Tool calls with no result: `drop` them, or `interrupt` (answer with a synthetic result). Default `interrupt`. */
    unresolvedToolCalls: z._default(z.enum(['drop', 'interrupt']), 'interrupt'),
    /** The synthetic result text for `interrupt`. */
    interruptedResultText: z._default(z.string(), DEFAULT_INTERRUPTED_RESULT),
    /** `needsSummary` turns on when the projection uses more than this share of the budget. Default 0.8. */
    summarizeAtRatio: z._default(z.number().check(z.gt(0), z.lte(1)), 0.8),
    /**
     * Tool traffic of older requests (outside the last `keepLastTurns` turns, unpinned, resolved):
     * `transparent` keeps it, `boundary` keeps only its outcome (the assistant's text),
     * `masked` keeps the calls and replaces results with a placeholder naming tool, call id and size.
     * Default `transparent`.
     */
    toolTrace: z._default(z.enum(['transparent', 'boundary', 'masked']), 'transparent'),
    /** Older identical tool results (same tool, arguments and output) become a reference to the newest. Default false. */
    dedupeToolResults: z._default(z.boolean(), false),
    /** Older tool results over this many tokens are cut to head and tail with a marker. Default: never. */
    pruneToolOutputsOverTokens: z.optional(z.int().check(z.positive())),
    /** Lines a pruned tool result keeps (head and tail together). Default 20. */
    pruneKeepLines: z._default(z.int().check(z.positive()), 20),
    /** UTF-8 bytes a pruned tool result keeps (head and tail together). Default 2000. */
    pruneKeepBytes: z._default(z.int().check(z.positive()), 2000),
    /**
     * Cache-friendly windows: when history must be cut, cut it in chunks down to `cacheLowWaterRatio`
     * of the history budget, so following calls keep a byte-identical prefix that providers bill
     * as cached. Default false (the presets turn it on).
     */
    cacheFriendly: z._default(z.boolean(), false),
    /** How far a cache-friendly window falls back when it moves, as a share of the history budget. Default 0.6. */
    cacheLowWaterRatio: z._default(z.number().check(z.gt(0), z.lt(1)), 0.6),
    /** Prompt caching on the wire: breakpoints, TTL, OpenAI cache key. Default: see `cachePolicySchema`. */
    cache: z.prefault(cachePolicySchema, {}),
    /** Tool output longer than this many UTF-8 bytes is truncated before it enters the thread. Default 32000. */
    toolOutputMaxBytes: z._default(z.int().check(z.positive()), 32_000),
    /** Tool output longer than this many lines is truncated before it enters the thread. Default 1000. */
    toolOutputMaxLines: z._default(z.int().check(z.positive()), 1000),
    /** Which part of long tool output to keep. Default `head-tail`. */
    toolOutputKeep: z._default(z.enum(['head', 'tail', 'head-tail']), 'head-tail'),
    /**
     * Images of messages before the newest this-many turns are left out of projections (kept in the
     * thread; `meta.messages[i].omittedImages` names them, and the text stays). Pinned messages keep
     * theirs. Default: every image is sent.
     */
    keepImagesTurns: z.optional(z.int().check(z.positive())),
    recall: z.optional(
      z.strictObject({
        share: z._default(z.number().check(z.gte(0), z.lte(1)), 0.5),
        maxTokens: z._default(z.int().check(z.positive()), 4096),
        neighbors: z._default(z.int().check(z.gte(0), z.lte(8)), 1),
        queryTurns: z._default(z.int().check(z.positive(), z.lte(16)), 1),
        maxHits: z._default(z.int().check(z.positive(), z.lte(1000)), 64),
        dates: z._default(z.boolean(), true),
        header: z._default(z.string(), 'Recalled from earlier in this conversation as relevant to the latest message (older than, and out of order with, the messages around it):'),
      }),
    ),
    /** Memory spaces rendered into the memory segment, in this order. Default: none. */
    memorySpaces: z._default(z.array(z.string().check(z.minLength(1))), []),
    /** Token cap of the rendered memory segment; spaces that do not fit are left out whole. Default 1000. */
    memoryMaxTokens: z._default(z.int().check(z.positive()), 1000),
    /** Counter this policy's budget was sized for; informational for callers. Default `o200k_base`. */
    tokenizer: z._default(z.enum(['o200k_base', 'cl100k_base', 'heuristic']), 'o200k_base'),
    /** Model id the policy was made for, if any (see `policyForModel`). */
    model: z.optional(z.string()),
    /** A name shown in devtools (presets set it). */
    name: z.optional(z.string()),
  }).check(z.superRefine((policy, context) => {
    if (policy.reserveOutputTokens >= policy.maxInputTokens) {
      context.addIssue({
        code: 'custom',
        path: ['reserveOutputTokens'],
        message: `must be less than maxInputTokens (${policy.reserveOutputTokens} >= ${policy.maxInputTokens}); nothing would be left for input`,
      })
    }
  }))

type ContextPolicy = Readonly<z.output<typeof policySchema>> & { readonly includeKinds: readonly EntryKind[] }
type PolicyOptions = z.input<typeof policySchema>

/** Validates policy options and fills defaults. Throws `InvalidPolicyError` saying which option was wrong. */
export function oracleDefinePolicy(options: PolicyOptions = {}): ContextPolicy {
  const parsed = safeParse(policySchema, options)
  if (!parsed.success) throw new InvalidPolicyError(formatIssues(parsed.error), { cause: parsed.error })
  const policy = parsed.data
  Object.freeze(policy.includeKinds)
  Object.freeze(policy.cache)
  return Object.freeze(policy) as ContextPolicy
}
