import type { ModelInfo, ModelPricing, ModelProvider } from './model-info'

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

function approximate(
  provider: ModelProvider,
  id: string,
  contextWindow: number,
  maxOutputTokens: number,
  prices?: readonly [number, number] | ModelPricing,
): ModelInfo {
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

export const handWrittenModels: readonly ModelInfo[] = [
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
export const modelAliases: Readonly<Record<string, string>> = {
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
