// Metadata only: these two modules hold no BPE ranks (about 76 KB minified, 7 KB gzip together).
import * as openAIModelSpecs from 'gpt-tokenizer/models'
import { modelToEncodingMap } from 'gpt-tokenizer/mapping'
import type { ModelInfo, ModelPricing } from './model-info'

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

/** OpenAI's chat-capable text models, derived from gpt-tokenizer's shipped model metadata. */
export function openAIModels(): ModelInfo[] {
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
