import { boolean, flag, int, number, object, oneOf, optional, string, type Reader } from '../validation/readers'

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

export const modelPricingReader: Reader<ModelPricing> = object<ModelPricing>({
  inputPerMillion: number({ min: 0 }),
  outputPerMillion: number({ min: 0 }),
  cacheReadPerMillion: optional(number({ min: 0 })),
  cacheWritePerMillion: optional(number({ min: 0 })),
  cacheWriteLongPerMillion: optional(number({ min: 0 })),
  minimumCacheableTokens: optional(int({ above: 0 })),
})

const nonEmpty = string({ min: 1 })
/** A string trimmed of surrounding white space, then not empty. */
const trimmed: Reader<string> = (value, at) => nonEmpty(typeof value === 'string' ? value.trim() : value, at)

/** Checks a model given to `registerModel`; unknown keys are errors, to catch typos. */
export const modelInfoReader: Reader<ModelInfo> = object<ModelInfo>(
  {
    id: trimmed,
    provider: trimmed,
    contextWindow: int({ above: 0 }),
    maxOutputTokens: int({ above: 0 }),
    maxInputTokens: optional(int({ above: 0 })),
    tokenizer: oneOf(['o200k_base', 'cl100k_base', 'heuristic']),
    exactTokenizer: boolean,
    safetyMargin: number({ min: 0, below: 1 }),
    pricing: optional(modelPricingReader),
  },
  (info, at) => {
    if (info.tokenizer === 'heuristic' && info.exactTokenizer)
      flag({ parent: at, key: 'exactTokenizer' }, 'must be false when tokenizer is "heuristic"')
    if (info.maxOutputTokens > info.contextWindow) {
      flag({ parent: at, key: 'maxOutputTokens' }, `must not exceed contextWindow (${info.maxOutputTokens} > ${info.contextWindow})`)
    }
    if (Math.floor(info.contextWindow * (1 - info.safetyMargin)) < 2)
      flag({ parent: at, key: 'safetyMargin' }, 'leaves no usable window; lower it or raise contextWindow')
  },
)
