import { z } from 'zod/mini'
// Metadata only: these two modules hold no BPE ranks (about 76 KB minified, 7 KB gzip together).
import * as openAIModelSpecs from 'gpt-tokenizer/models'
import { modelToEncodingMap } from 'gpt-tokenizer/mapping'
import { InvalidModelInfoError, UnknownModelError } from '../errors/threadlens-error'
import { formatIssues, safeParse } from '../validation/zod-issues'
import { definePolicy, type ContextPolicy, type PolicyOptions } from './policy'
import { calibratedPromptBudget, calibrationVerdict, type TokenCalibration } from '../calls/calibration'

export type ModelProvider = 'openai' | 'anthropic' | 'google' | 'meta' | 'mistral' | (string & {})

/** List prices in US dollars per million tokens, standard tier, shortest-prompt tier where prices are tiered. */
export interface ModelPricing {
  readonly inputPerMillion: number
  readonly outputPerMillion: number
  /** Prompt tokens read from the provider's prompt cache. Default: unknown (no cache pricing). */
  readonly cacheReadPerMillion?: number
  /** Prompt tokens written to a 5-minute cache entry (Anthropic: 1.25× input). Default: billed as input. */
  readonly cacheWritePerMillion?: number
  /** Prompt tokens written to a 1-hour cache entry (Anthropic: 2× input). Default: billed as input. */
  readonly cacheWriteLongPerMillion?: number
  /**
   * Fewest prompt tokens a cache entry may hold: shorter prefixes are not cached, silently
   * (Anthropic: 1,024 to 4,096 by model; OpenAI: 1,024). Default: 1,024.
   */
  readonly minimumCacheableTokens?: number
}

/** What threadlens knows about a model: its limits, how to count for it, and its price. */
export interface ModelInfo {
  /** The model id as its provider's API spells it, e.g. `gpt-4o` or `claude-sonnet-4-5`. */
  readonly id: string
  /** Who makes the model. */
  readonly provider: ModelProvider
  /** Tokens the model accepts per request, prompt and reply together. */
  readonly contextWindow: number
  /** The longest reply the model can produce, reasoning tokens included. */
  readonly maxOutputTokens: number
  /**
   * A cap on the prompt alone, when the provider sets one below `contextWindow - maxOutputTokens`
   * (OpenAI's GPT-5 family: 400k window, 272k prompt). Default: none, the prompt may use the window.
   */
  readonly maxInputTokens?: number
  /** The encoding to count with (see `createTokenCounter`). */
  readonly tokenizer: 'o200k_base' | 'cl100k_base' | 'heuristic'
  /** Whether `tokenizer` is the model's own tokenizer, so counts are exact. */
  readonly exactTokenizer: boolean
  /**
   * Share of the window (0 to under 1) that `policyForModel` leaves unused because counts are
   * approximate: 0 for exact tokenizers, 0.15 for the built-in models without a public one.
   */
  readonly safetyMargin: number
  /** List prices, when known; `estimateCost` uses them. Default: unknown. */
  readonly pricing?: ModelPricing
}

export const modelPricingSchema: z.ZodMiniType<ModelPricing> = z.strictObject({
  inputPerMillion: z.number().check(z.nonnegative()),
  outputPerMillion: z.number().check(z.nonnegative()),
  cacheReadPerMillion: z.exactOptional(z.number().check(z.nonnegative())),
  cacheWritePerMillion: z.exactOptional(z.number().check(z.nonnegative())),
  cacheWriteLongPerMillion: z.exactOptional(z.number().check(z.nonnegative())),
  minimumCacheableTokens: z.exactOptional(z.int().check(z.positive())),
})

/** Validates a model given to `registerModel`; unknown keys are errors, to catch typos. */
export const modelInfoSchema: z.ZodMiniType<ModelInfo> = z.strictObject({
    id: z.string().check(z.trim(), z.minLength(1)),
    provider: z.string().check(z.trim(), z.minLength(1)),
    contextWindow: z.int().check(z.positive()),
    maxOutputTokens: z.int().check(z.positive()),
    maxInputTokens: z.exactOptional(z.int().check(z.positive())),
    tokenizer: z.enum(['o200k_base', 'cl100k_base', 'heuristic']),
    exactTokenizer: z.boolean(),
    safetyMargin: z.number().check(z.gte(0), z.lt(1)),
    pricing: z.exactOptional(modelPricingSchema),
  }).check(z.superRefine((info, context) => {
    if (info.tokenizer === 'heuristic' && info.exactTokenizer) {
      context.addIssue({ code: 'custom', path: ['exactTokenizer'], message: 'must be false when tokenizer is "heuristic"' })
    }
    if (info.maxOutputTokens > info.contextWindow) {
      context.addIssue({
        code: 'custom',
        path: ['maxOutputTokens'],
        message: `must not exceed contextWindow (${info.maxOutputTokens} > ${info.contextWindow})`,
      })
    }
    if (Math.floor(info.contextWindow * (1 - info.safetyMargin)) < 2) {
      context.addIssue({ code: 'custom', path: ['safetyMargin'], message: 'leaves no usable window; lower it or raise contextWindow' })
    }
  }))

/** `registerModel` was given a model that does not match `modelInfoSchema`. */

// ---------------------------------------------------------------------------------------------
// OpenAI: derived from gpt-tokenizer's shipped model metadata, so limits follow its releases.

interface OpenAIModelSpec {
  readonly modalities?: { readonly input?: readonly string[]; readonly output?: readonly string[] }
  readonly supported_endpoints?: readonly string[]
  readonly context_window?: number
  readonly max_output_tokens?: number
  readonly max_input_tokens?: number
}

const chatEndpoints = new Set(['chat_completions', 'responses'])

/**
 * gpt-tokenizer's `price_data` is not used: several rows are wrong (gpt-4o, gpt-4.1 and gpt-5 all
 * carry GPT-4 Turbo's $10/$30, gpt-oss carries per-thousand-like fractions). These list prices are
 * from OpenAI's pricing page; a dated snapshot gets them only when gpt-tokenizer says it is the
 * same model (the same spec object), as `gpt-4o` and `gpt-4o-2024-08-06` are.
 */
const openAIPricing: Readonly<Record<string, ModelPricing>> = {
  'gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
  'gpt-4': { inputPerMillion: 30, outputPerMillion: 60 },
  'gpt-4-turbo': { inputPerMillion: 10, outputPerMillion: 30 },
  'gpt-4o': openAIPrices(2.5, 10, 1.25),
  'gpt-4o-mini': openAIPrices(0.15, 0.6, 0.075),
  'gpt-4.1': openAIPrices(2, 8, 0.5),
  'gpt-4.1-mini': openAIPrices(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openAIPrices(0.1, 0.4, 0.025),
  'gpt-5': openAIPrices(1.25, 10, 0.125),
  'gpt-5-mini': openAIPrices(0.25, 2, 0.025),
  'gpt-5-nano': openAIPrices(0.05, 0.4, 0.005),
  'gpt-5.1': openAIPrices(1.25, 10, 0.125),
  // GPT-5.6 caches at breakpoints and bills writes at 1.25× input. Requests over 272k input tokens are
  // billed at double rates; these are the standard ones.
  'gpt-5.6-sol': openAIPrices(5, 30, 0.5, 6.25),
  'gpt-5.6-terra': openAIPrices(2, 12, 0.2, 2.5),
  'gpt-5.6-luna': openAIPrices(0.2, 1.2, 0.02, 0.25),
  o1: openAIPrices(15, 60, 7.5),
  'o3-mini': openAIPrices(1.1, 4.4, 0.55),
  o3: openAIPrices(2, 8, 0.5),
  'o4-mini': openAIPrices(1.1, 4.4, 0.275),
}

/**
 * OpenAI caches prompts of 1,024 tokens or more; cached tokens cost the model's "cached input" price
 * (pricing page, as of November 2026). Models before GPT-5.6 bill no write surcharge; GPT-5.6 and
 * later bill cache writes (`cacheWrite`). Models before gpt-4o have no prompt caching: no cache price.
 */
function openAIPrices(input: number, output: number, cachedInput: number, cacheWrite?: number): ModelPricing {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheReadPerMillion: cachedInput,
    ...(cacheWrite === undefined ? {} : { cacheWritePerMillion: cacheWrite }),
    minimumCacheableTokens: 1_024,
  }
}

function openAIModels(): ModelInfo[] {
  const specs = openAIModelSpecs as unknown as Readonly<Record<string, OpenAIModelSpec | undefined>>
  const encodings = modelToEncodingMap as Readonly<Record<string, string | undefined>>
  const pricingBySpec = new Map<OpenAIModelSpec, ModelPricing>()
  for (const [id, pricing] of Object.entries(openAIPricing)) {
    const spec = specs[id]
    if (spec !== undefined) pricingBySpec.set(spec, pricing)
  }
  const models: ModelInfo[] = []
  for (const [id, spec] of Object.entries(specs)) {
    if (typeof spec !== 'object' || spec === null) continue
    const { context_window: contextWindow, max_output_tokens: maxOutputTokens, max_input_tokens: maxInputTokens } = spec
    if (contextWindow === undefined || maxOutputTokens === undefined) continue
    // Chat-capable text models only: no embeddings, moderation, realtime, audio, image or video.
    const output = spec.modalities?.output ?? []
    if (output.length === 0 || output.some((modality) => modality !== 'text')) continue
    if (!(spec.supported_endpoints ?? []).some((endpoint) => chatEndpoints.has(endpoint))) continue
    // gpt-tokenizer defaults unlisted models to o200k_base. o200k_harmony (gpt-oss) is o200k_base
    // plus chat-format special tokens; text counts are identical, since special-token markers in
    // text are counted as plain text.
    const encoding = encodings[id] ?? 'o200k_base'
    if (encoding !== 'o200k_base' && encoding !== 'cl100k_base' && encoding !== 'o200k_harmony') continue
    const pricing = pricingBySpec.get(spec)
    models.push({
      id,
      provider: 'openai',
      contextWindow,
      maxOutputTokens: Math.min(maxOutputTokens, contextWindow),
      ...(maxInputTokens === undefined || maxInputTokens >= contextWindow ? {} : { maxInputTokens }),
      tokenizer: encoding === 'cl100k_base' ? 'cl100k_base' : 'o200k_base',
      exactTokenizer: true,
      safetyMargin: 0,
      ...(pricing === undefined ? {} : { pricing }),
    })
  }
  return models
}

// ---------------------------------------------------------------------------------------------
// Other providers: hand-written from the providers' public model docs as of 2026 (Anthropic
// "Models overview", Google "Gemini models", Meta's Llama model cards, Mistral "Models").
// None publishes a browser tokenizer, so they are counted with o200k_base and a safety margin.

/**
 * Their tokenizers differ from o200k_base by roughly 10-30% depending on the text (more for code
 * and non-Latin scripts). The nearest figure measured here (TOOLCHAIN.md) is chars/4 against exact
 * o200k: ±15% per message at the median, ±31% at p90. Over a whole prompt the per-message errors
 * partly cancel, so 15% of the window is a margin that rarely overflows without wasting much.
 */
export const APPROXIMATE_TOKENIZER_SAFETY_MARGIN = 0.15

/**
 * Gemini 2.5 and later cache implicitly: a prompt prefix seen recently is billed at the cached price
 * (90% off), with no write surcharge, from a minimum prompt length per model (Gemini API "Context
 * caching", as of November 2026; prices for prompts up to 200k tokens).
 */
function geminiPrices(input: number, output: number, cachedInput: number, minimumCacheableTokens: number): ModelPricing {
  return { inputPerMillion: input, outputPerMillion: output, cacheReadPerMillion: cachedInput, minimumCacheableTokens }
}

function approximate(provider: ModelProvider, id: string, contextWindow: number, maxOutputTokens: number, prices?: readonly [number, number] | ModelPricing): ModelInfo {
  const pricing = prices === undefined || !Array.isArray(prices) ? prices : { inputPerMillion: prices[0], outputPerMillion: prices[1] }
  return {
    id,
    provider,
    contextWindow,
    maxOutputTokens,
    tokenizer: 'o200k_base',
    exactTokenizer: false,
    safetyMargin: APPROXIMATE_TOKENIZER_SAFETY_MARGIN,
    ...(pricing === undefined ? {} : { pricing: pricing as ModelPricing }),
  }
}

/**
 * Anthropic's prompt-caching prices are fixed multiples of the base input price (pricing and prompt
 * caching docs, as of November 2026): 5-minute writes 1.25×, 1-hour writes 2×, reads 0.1×. The
 * minimum cacheable prompt is per model: 1,024 tokens for Sonnet and for Opus up to 4.1, 2,048 for
 * the Haiku 3 models, 4,096 for Haiku 4.5 and Opus 4.5.
 */
function anthropicPrices(input: number, output: number, minimumCacheableTokens: number): ModelPricing {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheReadPerMillion: round(input * 0.1),
    cacheWritePerMillion: round(input * 1.25),
    cacheWriteLongPerMillion: round(input * 2),
    minimumCacheableTokens,
  }
}

// Prices are dollars per million tokens: six decimals keep them exact without float noise (0.30000000000000004).
function round(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000
}

const handWrittenModels: readonly ModelInfo[] = [
  // Anthropic: 200k windows. Sonnet 4/4.5 offer 1M behind a beta header: pass maxInputTokens yourself.
  approximate('anthropic', 'claude-opus-4-5', 200_000, 64_000, anthropicPrices(5, 25, 4_096)),
  approximate('anthropic', 'claude-opus-4-1', 200_000, 32_000, anthropicPrices(15, 75, 1_024)),
  approximate('anthropic', 'claude-opus-4', 200_000, 32_000, anthropicPrices(15, 75, 1_024)),
  approximate('anthropic', 'claude-sonnet-4-5', 200_000, 64_000, anthropicPrices(3, 15, 1_024)),
  approximate('anthropic', 'claude-sonnet-4', 200_000, 64_000, anthropicPrices(3, 15, 1_024)),
  approximate('anthropic', 'claude-haiku-4-5', 200_000, 64_000, anthropicPrices(1, 5, 4_096)),
  approximate('anthropic', 'claude-3-7-sonnet', 200_000, 64_000, anthropicPrices(3, 15, 1_024)),
  approximate('anthropic', 'claude-3-5-sonnet', 200_000, 8_192, anthropicPrices(3, 15, 1_024)),
  approximate('anthropic', 'claude-3-5-haiku', 200_000, 8_192, anthropicPrices(0.8, 4, 2_048)),
  approximate('anthropic', 'claude-3-haiku', 200_000, 4_096, anthropicPrices(0.25, 1.25, 2_048)),
  // Google: the window is the input limit; replies have their own. Prices for prompts up to 200k.
  approximate('google', 'gemini-3-pro-preview', 1_048_576, 65_536, geminiPrices(2, 12, 0.2, 4_096)),
  approximate('google', 'gemini-2.5-pro', 1_048_576, 65_536, geminiPrices(1.25, 10, 0.125, 2_048)),
  approximate('google', 'gemini-2.5-flash', 1_048_576, 65_536, geminiPrices(0.3, 2.5, 0.03, 2_048)),
  approximate('google', 'gemini-2.5-flash-lite', 1_048_576, 65_536, geminiPrices(0.1, 0.4, 0.01, 2_048)),
  approximate('google', 'gemini-2.0-flash', 1_048_576, 8_192, [0.1, 0.4]),
  approximate('google', 'gemini-2.0-flash-lite', 1_048_576, 8_192, [0.075, 0.3]),
  // Meta: model-card windows; the reply shares the window. Hosts often serve less (and price
  // differently): pass maxInputTokens for yours.
  approximate('meta', 'llama-3.1-8b-instruct', 131_072, 131_072),
  approximate('meta', 'llama-3.1-70b-instruct', 131_072, 131_072),
  approximate('meta', 'llama-3.1-405b-instruct', 131_072, 131_072),
  approximate('meta', 'llama-3.3-70b-instruct', 131_072, 131_072),
  approximate('meta', 'llama-4-scout', 10_000_000, 10_000_000),
  approximate('meta', 'llama-4-maverick', 1_000_000, 1_000_000),
  // Mistral: the reply shares the window. `mistral-large` is Large 2 (128k); Large 3 accepts more,
  // so the smaller figure is safe for both.
  approximate('mistral', 'mistral-large', 131_072, 131_072),
  approximate('mistral', 'mistral-medium', 131_072, 131_072),
  approximate('mistral', 'mistral-small', 131_072, 131_072),
  approximate('mistral', 'mistral-small-2501', 32_768, 32_768),
  approximate('mistral', 'codestral', 262_144, 262_144),
  approximate('mistral', 'codestral-2405', 32_768, 32_768),
  approximate('mistral', 'ministral-8b', 131_072, 131_072),
  approximate('mistral', 'ministral-3b', 131_072, 131_072),
  approximate('mistral', 'mistral-nemo', 131_072, 131_072),
]

/** Other spellings of the same model that suffix stripping cannot reach. */
const aliases: Readonly<Record<string, string>> = {
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-0': 'claude-sonnet-4',
  'llama-3.3-70b-versatile': 'llama-3.3-70b-instruct',
  'llama-3.1-8b-instant': 'llama-3.1-8b-instruct',
  'llama-4-scout-17b-16e': 'llama-4-scout',
  'llama-4-maverick-17b-128e': 'llama-4-maverick',
  'mistral-medium-3': 'mistral-medium',
  'mistral-medium-3.1': 'mistral-medium',
  'mistral-small-3.1-24b': 'mistral-small',
  'mistral-small-3.2-24b': 'mistral-small',
  'mistral-small-24b': 'mistral-small-2501',
  'open-mistral-nemo': 'mistral-nemo',
}

// ---------------------------------------------------------------------------------------------
// Registry and resolution.

function freezeModel(info: ModelInfo): ModelInfo {
  if (info.pricing !== undefined) Object.freeze(info.pricing)
  return Object.freeze(info)
}

const builtInModels = new Map<string, ModelInfo>(
  [...openAIModels(), ...handWrittenModels].map((info) => [info.id.toLowerCase(), freezeModel(info)]),
)
/** Page-global, like the built-in table: registered models override built-ins with the same id. */
const registeredModels = new Map<string, ModelInfo>()

function lookup(key: string): ModelInfo | undefined {
  const direct = registeredModels.get(key) ?? builtInModels.get(key)
  if (direct !== undefined) return direct
  const target = aliases[key]
  return target === undefined ? undefined : (registeredModels.get(target) ?? builtInModels.get(target))
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
  const merged = new Map(builtInModels)
  for (const [key, info] of registeredModels) merged.set(key, info)
  return [...merged.values()].sort((first, second) => (first.id < second.id ? -1 : first.id > second.id ? 1 : 0))
}

/**
 * Adds a model (e.g. a local Ollama one) or corrects a built-in one, for this page. Throws
 * `InvalidModelInfoError` saying which field is wrong. Returns a function that removes it again.
 */
export function registerModel(info: ModelInfo): () => void {
  const parsed = safeParse(modelInfoSchema, info)
  if (!parsed.success) throw new InvalidModelInfoError(formatIssues(parsed.error), { cause: parsed.error })
  const registered = freezeModel(parsed.data)
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
    const reserveOutputTokens = overrides.reserveOutputTokens ?? defaultReserveOutputTokens(info.maxOutputTokens, overrides.maxInputTokens ?? info.contextWindow)
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
  usage: { readonly inputTokens: number; readonly outputTokens: number; readonly cachedInputTokens?: number; readonly cacheWriteInputTokens?: number },
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
