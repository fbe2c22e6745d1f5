import { InvalidPolicyError } from '../errors/threadlens-error'
import { entryKinds } from '../entries/entry'
import { problemIssue } from '../validation/issues'
import { array, boolean, flag, int, number, object, oneOf, optional, read, string, union, withDefault, type Reader } from '../validation/readers'
import type { CachePolicy, ContextPolicy, PolicyOptions, RecallPolicy } from './policy-options'

export type {
  CacheFields,
  CacheOptions,
  CachePolicy,
  ContextPolicy,
  PolicyFields,
  PolicyOptions,
  RecallFields,
  RecallOptions,
  RecallPolicy,
} from './policy-options'

export const DEFAULT_SUMMARY_PREFIX = 'Summary of the earlier conversation:\n'
export const DEFAULT_INTERRUPTED_RESULT = '[interrupted: this tool call never returned a result]'
export const DEFAULT_RECALL_HEADER =
  'Recalled from earlier in this conversation as relevant to the latest message (older than, and out of order with, the messages around it):'

// Each option's rule and default; the options are documented in policy-options.ts.

const cacheReader: Reader<CachePolicy> = object<CachePolicy>({
  anthropic: withDefault(oneOf(['explicit', 'auto', 'off']), () => 'explicit'),
  ttl: withDefault(oneOf(['5m', '1h']), () => '5m'),
  openAIKey: optional(union<string | false>([string({ min: 1, max: 1024 }), oneOf([false])]), 'loose'),
  openAI: withDefault(oneOf(['auto', 'off']), () => 'auto'),
  reduceEveryTurns: withDefault(int({ above: 0 }), () => 1),
  memoryHoldTurns: withDefault(int({ above: 0 }), () => 1),
  memoryRefreshTokens: withDefault(int({ min: 0 }), () => 200),
})

const recallReader: Reader<RecallPolicy> = object<RecallPolicy>({
  share: withDefault(number({ min: 0, max: 1 }), () => 0.5),
  maxTokens: withDefault(int({ above: 0 }), () => 4096),
  neighbors: withDefault(int({ min: 0, max: 8 }), () => 1),
  queryTurns: withDefault(int({ above: 0, max: 16 }), () => 1),
  maxHits: withDefault(int({ above: 0, max: 1000 }), () => 64),
  dates: withDefault(boolean, () => true),
  header: withDefault(string(), () => DEFAULT_RECALL_HEADER),
})

const policyReader: Reader<ContextPolicy> = object<ContextPolicy>(
  {
    maxInputTokens: withDefault(int({ above: 0 }), () => 8192),
    reserveOutputTokens: withDefault(int({ min: 0 }), () => 1024),
    maxMessages: optional(int({ above: 0 }), 'loose'),
    maxTurns: optional(int({ above: 0 }), 'loose'),
    keepLastTurns: withDefault(int({ min: 0 }), () => 2),
    includeKinds: withDefault(array(oneOf(entryKinds)), () => ['message', 'tool_call', 'tool_result', 'summary']),
    summaryRole: withDefault(oneOf(['system', 'user']), () => 'system'),
    summaryPrefix: withDefault(string(), () => DEFAULT_SUMMARY_PREFIX),
    systemPrompt: optional(string(), 'loose'),
    unresolvedToolCalls: withDefault(oneOf(['drop', 'interrupt']), () => 'interrupt'),
    interruptedResultText: withDefault(string(), () => DEFAULT_INTERRUPTED_RESULT),
    summarizeAtRatio: withDefault(number({ above: 0, max: 1 }), () => 0.8),
    toolTrace: withDefault(oneOf(['transparent', 'boundary', 'masked']), () => 'transparent'),
    dedupeToolResults: withDefault(boolean, () => false),
    pruneToolOutputsOverTokens: optional(int({ above: 0 }), 'loose'),
    pruneKeepLines: withDefault(int({ above: 0 }), () => 20),
    pruneKeepBytes: withDefault(int({ above: 0 }), () => 2000),
    cacheFriendly: withDefault(boolean, () => false),
    cacheLowWaterRatio: withDefault(number({ above: 0, below: 1 }), () => 0.6),
    cache: (value, at) => cacheReader(value === undefined ? {} : value, at),
    toolOutputMaxBytes: withDefault(int({ above: 0 }), () => 32_000),
    toolOutputMaxLines: withDefault(int({ above: 0 }), () => 1000),
    toolOutputKeep: withDefault(oneOf(['head', 'tail', 'head-tail']), () => 'head-tail'),
    keepImagesTurns: optional(int({ above: 0 }), 'loose'),
    recall: optional(recallReader, 'loose'),
    memorySpaces: withDefault(array(string({ min: 1 })), () => []),
    memoryMaxTokens: withDefault(int({ above: 0 }), () => 1000),
    tokenizer: withDefault(oneOf(['o200k_base', 'cl100k_base', 'heuristic']), () => 'o200k_base'),
    model: optional(string(), 'loose'),
    name: optional(string(), 'loose'),
  },
  (policy, at) => {
    if (policy.reserveOutputTokens >= policy.maxInputTokens) {
      flag(
        { parent: at, key: 'reserveOutputTokens' },
        `must be less than maxInputTokens (${policy.reserveOutputTokens} >= ${policy.maxInputTokens}); nothing would be left for input`,
      )
    }
  },
)

/** Validates policy options and fills defaults. Throws `InvalidPolicyError` saying which option was wrong. */
export function definePolicy(options: PolicyOptions = {}): ContextPolicy {
  const result = read(policyReader, options)
  if (!result.ok) throw new InvalidPolicyError([problemIssue(result.problem)])
  const policy = result.value
  Object.freeze(policy.includeKinds)
  Object.freeze(policy.cache)
  if (policy.recall !== undefined) Object.freeze(policy.recall)
  return Object.freeze(policy)
}

/** A policy with some options changed, validated again. */
export function withPolicy(base: ContextPolicy, changes: PolicyOptions): ContextPolicy {
  return definePolicy({ ...base, ...changes })
}

/** The input token budget of a policy. */
export function inputBudget(policy: ContextPolicy): number {
  return policy.maxInputTokens - policy.reserveOutputTokens
}
