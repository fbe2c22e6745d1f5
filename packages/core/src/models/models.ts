import { InvalidModelInfoError, UnknownModelError } from '../errors/threadlens-error'
import { problemIssue } from '../validation/issues'
import { read } from '../validation/readers'
import { definePolicy, type ContextPolicy, type PolicyOptions } from '../policy/policy'
import { calibratedPromptBudget, calibrationVerdict, type TokenCalibration } from '../calls/calibration'
import { modelInfoReader, type ModelInfo } from './model-info'
import { openAIModels } from './openai-models'
import { handWrittenModels, modelAliases } from './hand-written-models'

export { type ModelInfo, type ModelPricing, type ModelProvider } from './model-info'
export { APPROXIMATE_TOKENIZER_SAFETY_MARGIN } from './hand-written-models'

// Registry and resolution.

function freezeModel(info: ModelInfo): ModelInfo {
  if (info.pricing !== undefined) Object.freeze(info.pricing)
  return Object.freeze(info)
}

let builtInTable: Map<string, ModelInfo> | undefined

/**
 * The built-in models by lower-case id, built on first use: deriving OpenAI's rows from
 * gpt-tokenizer's metadata takes ~10 ms of script, which an app (or the devtools panel) importing
 * this module should not pay at load time, before anything asked about a model.
 */
function builtInModels(): Map<string, ModelInfo> {
  builtInTable ??= new Map([...openAIModels(), ...handWrittenModels].map((info) => [info.id.toLowerCase(), freezeModel(info)]))
  return builtInTable
}

/** Page-global, like the built-in table: registered models override built-ins with the same id. */
const registeredModels = new Map<string, ModelInfo>()

function lookup(key: string): ModelInfo | undefined {
  const builtIn = builtInModels()
  const direct = registeredModels.get(key) ?? builtIn.get(key)
  if (direct !== undefined) return direct
  const target = modelAliases[key]
  return target === undefined ? undefined : (registeredModels.get(target) ?? builtIn.get(target))
}

/** Routers and clouds write ids differently; reduce them to the provider's own spelling. */
function normalize(key: string): string {
  let normalized = key.slice(key.lastIndexOf('/') + 1) // `openai/gpt-4o`, `meta-llama/Llama-3.3-70B-Instruct`, `models/gemini-2.5-pro`
  normalized = normalized.replace(/[:@].*$/, '') // OpenRouter `:free`/`:thinking`, Bedrock `:0`, Vertex `@20250929`
  normalized = normalized.replace(/^(?:[a-z]{2,4}\.)?(?:anthropic|meta|mistral)\./, '') // Bedrock `us.anthropic.claude-…`
  normalized = normalized.replace(/^meta-(?=llama)/, '') // `Meta-Llama-3.1-8B-Instruct`
  // OpenRouter writes `claude-sonnet-4.5` and `claude-3.7-sonnet`; Anthropic uses dashes.
  if (normalized.startsWith('claude-')) normalized = normalized.replace(/(\d)\.(\d)/g, '$1-$2')
  return normalized
}

/** Suffixes that name a snapshot, a host's variant or a packaging of a model already known. */
const strippableSuffixes = [
  /-latest$/,
  /-\d{8}$/, // Anthropic snapshots: -20250929
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI snapshots: -2024-08-06
  /-\d{2}-\d{2,4}$/, // Gemini previews: -09-2025, -06-17
  /-\d{4}$/, // Mistral versions: -2411
  /-\d{3}$/, // Gemini stable versions: -001
  /-v\d+(?:\.\d+)?$/, // Bedrock versions: -v1 (after `:0` went)
  /-(?:preview|exp|instruct|turbo|fp8)$/,
]

function findModel(id: string): ModelInfo | undefined {
  const raw = id.trim().toLowerCase()
  const exact = lookup(raw)
  if (exact !== undefined) return exact
  let key = normalize(raw)
  for (;;) {
    const found = lookup(key)
    if (found !== undefined) return found
    const pattern = strippableSuffixes.find((suffix) => suffix.test(key))
    if (pattern === undefined) return undefined
    key = key.replace(pattern, '')
  }
}

/**
 * The model with this id, case-insensitive. Also accepts dated snapshots
 * (`claude-sonnet-4-5-20250929`), `-latest` aliases and router or cloud spellings
 * (`openai/gpt-4o`, `anthropic/claude-sonnet-4.5`, `meta-llama/Llama-3.3-70B-Instruct`).
 * Throws `UnknownModelError` for any other id.
 */
export function modelInfo(id: string): ModelInfo {
  const info = findModel(id)
  if (info === undefined) throw new UnknownModelError(id)
  return info
}

/** Every known model, built-in and registered, sorted by id. */
export function listModels(): ModelInfo[] {
  const merged = new Map(builtInModels())
  for (const [key, info] of registeredModels) merged.set(key, info)
  return [...merged.values()].sort((first, second) => (first.id < second.id ? -1 : first.id > second.id ? 1 : 0))
}

/**
 * Adds a model (e.g. a local Ollama one) or corrects a built-in one, for this page. Throws
 * `InvalidModelInfoError` saying which field is wrong. Returns a function that removes it again.
 */
export function registerModel(info: ModelInfo): () => void {
  const parsed = read(modelInfoReader, info)
  if (!parsed.ok) throw new InvalidModelInfoError([problemIssue(parsed.problem)])
  const registered = freezeModel(parsed.value)
  const key = registered.id.toLowerCase()
  registeredModels.set(key, registered)
  return () => {
    if (registeredModels.get(key) === registered) registeredModels.delete(key)
  }
}

const MIN_DEFAULT_RESERVE_OUTPUT_TOKENS = 1_024
const MAX_DEFAULT_RESERVE_OUTPUT_TOKENS = 32_768

/**
 * An eighth of the window, from 1,024 to 32,768 tokens, never more than the model can write or
 * half the window. For a 200k reasoning model that is 25,000: what OpenAI advises keeping free for
 * reasoning plus reply. Send the policy's `reserveOutputTokens` as the request's max output tokens
 * so the two agree.
 */
function defaultReserveOutputTokens(maxOutputTokens: number, window: number): number {
  const share = Math.min(MAX_DEFAULT_RESERVE_OUTPUT_TOKENS, Math.max(MIN_DEFAULT_RESERVE_OUTPUT_TOKENS, Math.floor(window / 8)))
  return Math.min(maxOutputTokens, share, Math.floor(window / 2))
}

/**
 * A policy sized for a model: `maxInputTokens` is its window less its safety margin, and
 * `reserveOutputTokens` an eighth of that (1k to 32k, at most the model's output limit). Where
 * the provider caps the prompt alone (GPT-5: 272k of a 400k window), the window is lowered so the
 * input budget equals that cap. `overrides` win over all of it; a smaller `maxInputTokens`
 * override also scales the default reserve. Throws `UnknownModelError` for an unknown id.
 */
export function policyForModel(id: string, overrides: PolicyOptions = {}, options: PolicyForModelOptions = {}): ContextPolicy {
  const info = modelInfo(id)
  const verdict = calibrationVerdict(options.calibration, { exact: info.exactTokenizer, defaultMargin: info.safetyMargin })
  if (verdict.source === 'calibrated') {
    // Plan in local tokens so that the provider's count of the prompt stays within its limit.
    const reserveOutputTokens =
      overrides.reserveOutputTokens ?? defaultReserveOutputTokens(info.maxOutputTokens, overrides.maxInputTokens ?? info.contextWindow)
    const providerPrompt = Math.min(info.contextWindow - reserveOutputTokens, info.maxInputTokens ?? Number.POSITIVE_INFINITY)
    const maxInputTokens = calibratedPromptBudget(providerPrompt, verdict) + reserveOutputTokens
    return definePolicy({ name: id, model: id, maxInputTokens, reserveOutputTokens, tokenizer: info.tokenizer, ...overrides })
  }
  const usableWindow = Math.floor(info.contextWindow * (1 - info.safetyMargin))
  const reserveOutputTokens =
    overrides.reserveOutputTokens ?? defaultReserveOutputTokens(info.maxOutputTokens, overrides.maxInputTokens ?? usableWindow)
  const maxInputTokens =
    info.maxInputTokens === undefined
      ? usableWindow
      : Math.min(usableWindow, Math.floor(info.maxInputTokens * (1 - info.safetyMargin)) + reserveOutputTokens)
  return definePolicy({ name: id, model: id, maxInputTokens, reserveOutputTokens, tokenizer: info.tokenizer, ...overrides })
}

export interface PolicyForModelOptions {
  /**
   * How the provider has counted against the local counter on recent calls (the store keeps one per
   * model). With at least `calibrationDefaults.minimumSamples` calls it replaces the model's fixed
   * `safetyMargin`: the margin shrinks to what the data supports and grows back as the error grows.
   * Default: none, the fixed margin.
   */
  readonly calibration?: TokenCalibration | undefined
}

/**
 * What a call cost in US dollars at list prices, or `undefined` when the model or its price is
 * unknown. Count reasoning tokens as output. `inputTokens` is the whole prompt; the parts the
 * provider reported as read from or written to its prompt cache are priced at the model's cache
 * prices (5-minute writes; long-prompt tiers are not applied).
 */
export function estimateCost(
  usage: {
    readonly inputTokens: number
    readonly outputTokens: number
    readonly cachedInputTokens?: number
    readonly cacheWriteInputTokens?: number
  },
  modelId: string,
): number | undefined {
  const pricing = findModel(modelId)?.pricing
  if (pricing === undefined) return undefined
  const read = usage.cachedInputTokens ?? 0
  const written = usage.cacheWriteInputTokens ?? 0
  const plain = Math.max(0, usage.inputTokens - read - written)
  return (
    (plain * pricing.inputPerMillion +
      read * (pricing.cacheReadPerMillion ?? pricing.inputPerMillion) +
      written * (pricing.cacheWritePerMillion ?? pricing.inputPerMillion) +
      usage.outputTokens * pricing.outputPerMillion) /
    1_000_000
  )
}
