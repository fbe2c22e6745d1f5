import { describe, it, expect } from 'vitest'
import * as openAIModelSpecs from 'gpt-tokenizer/models'
import { modelToEncodingMap } from 'gpt-tokenizer/mapping'
import { InvalidModelInfoError, ThreadlensError, UnknownModelError } from '../errors/threadlens-error'
import { inputBudget } from '../policy/policy'
import { APPROXIMATE_TOKENIZER_SAFETY_MARGIN, estimateCost, listModels, modelInfo, policyForModel, registerModel, type ModelInfo } from './models'
import { thrownBy } from '../testing/thrown-by'

interface Spec {
  readonly context_window?: number
  readonly max_output_tokens?: number
  readonly max_input_tokens?: number
}
const specs = openAIModelSpecs as unknown as Readonly<Record<string, Spec | undefined>>

function specOf(id: string): Spec {
  const spec = specs[id]
  if (spec === undefined) throw new Error(`gpt-tokenizer has no ${id}`)
  return spec
}

const localModel: ModelInfo = {
  id: 'llama3.2:3b',
  provider: 'ollama',
  contextWindow: 8_192,
  maxOutputTokens: 2_048,
  tokenizer: 'heuristic',
  exactTokenizer: false,
  safetyMargin: 0.2,
}

describe('modelInfo resolution', () => {
  // Repeated on purpose: a case table of the same shape as packages/core/src/formats/arguments-text.property.test.ts has (other cases).
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['GPT-4o', 'gpt-4o'],
    ['openai/gpt-4o', 'gpt-4o'],
    ['gpt-4o-2024-08-06', 'gpt-4o-2024-08-06'],
    ['openai/gpt-5-mini', 'gpt-5-mini'],
    ['openai/gpt-oss-120b', 'gpt-oss-120b'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['anthropic/claude-3.7-sonnet:thinking', 'claude-3-7-sonnet'],
    ['Claude-3-5-Haiku-Latest', 'claude-3-5-haiku'],
    ['claude-opus-4-0', 'claude-opus-4'],
    ['claude-opus-4-20250514', 'claude-opus-4'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['google/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['models/gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['gemini-2.5-flash-lite-preview-09-2025', 'gemini-2.5-flash-lite'],
    ['gemini-3-pro-preview', 'gemini-3-pro-preview'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'llama-3.3-70b-instruct'],
    ['meta-llama/llama-3.1-8b-instruct', 'llama-3.1-8b-instruct'],
    ['meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', 'llama-3.1-8b-instruct'],
    ['llama-3.3-70b-versatile', 'llama-3.3-70b-instruct'],
    ['meta-llama/Llama-4-Scout-17B-16E-Instruct', 'llama-4-scout'],
    ['meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', 'llama-4-maverick'],
    ['mistral-large-latest', 'mistral-large'],
    ['mistral-large-2411', 'mistral-large'],
    ['mistralai/mistral-small-3.2-24b-instruct', 'mistral-small'],
    ['mistralai/Mistral-Small-24B-Instruct-2501', 'mistral-small-2501'],
    ['mistralai/Mistral-Nemo-Instruct-2407', 'mistral-nemo'],
    ['open-mistral-nemo', 'mistral-nemo'],
    ['codestral-2508', 'codestral'],
    ['ministral-8b-latest', 'ministral-8b'],
  ])('%s resolves to %s', (id, expected) => {
    expect(modelInfo(id).id).toBe(expected)
  })

  it.each([
    'gpt-7',
    'claude-sonnet-9',
    'text-embedding-3-small',
    'whisper-1',
    'tts-1',
    'dall-e-3',
    'gpt-4o-realtime-preview',
    'gpt-4o-audio-preview',
    'omni-moderation-latest',
    '',
  ])('throws UnknownModelError naming %j', (id) => {
    const error = thrownBy(() => modelInfo(id))
    expect(error).toBeInstanceOf(UnknownModelError)
    expect(ThreadlensError.isInstance(error)).toBe(true)
    expect((error as UnknownModelError).modelId).toBe(id)
    expect((error as UnknownModelError).message).toContain(`"${id}"`)
    expect(() => policyForModel(id)).toThrow(UnknownModelError)
  })
})

describe('listModels', () => {
  it('is sorted by id, deterministic and has no duplicate ids', () => {
    const ids = listModels().map((info) => info.id)
    expect(ids).toEqual([...ids].sort((first, second) => (first < second ? -1 : first > second ? 1 : 0)))
    expect(new Set(ids).size).toBe(ids.length)
    expect(listModels().map((info) => info.id)).toEqual(ids)
    for (const provider of ['openai', 'anthropic', 'google', 'meta', 'mistral']) {
      expect(listModels().some((info) => info.provider === provider)).toBe(true)
    }
  })

  it('gives every model a valid policy with a positive budget and a reserve inside the window', () => {
    for (const info of listModels()) {
      const policy = policyForModel(info.id)
      expect(policy.model).toBe(info.id)
      expect(policy.tokenizer).toBe(info.tokenizer)
      expect(inputBudget(policy)).toBeGreaterThan(0)
      expect(policy.reserveOutputTokens).toBeGreaterThan(0)
      expect(policy.reserveOutputTokens).toBeLessThan(policy.maxInputTokens)
      expect(policy.reserveOutputTokens).toBeLessThanOrEqual(info.maxOutputTokens)
      expect(policy.maxInputTokens).toBeLessThanOrEqual(info.contextWindow)
      if (info.maxInputTokens !== undefined) expect(inputBudget(policy)).toBeLessThanOrEqual(info.maxInputTokens)
      expect(Object.isFrozen(info)).toBe(true)
    }
  })
})

describe('OpenAI models', () => {
  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'o3', 'gpt-3.5-turbo', 'gpt-4'])('%s matches gpt-tokenizer metadata', (id) => {
    const spec = specOf(id)
    const info = modelInfo(id)
    expect(info.provider).toBe('openai')
    expect(info.contextWindow).toBe(spec.context_window)
    expect(info.maxOutputTokens).toBe(spec.max_output_tokens)
    const inputCap = spec.max_input_tokens !== undefined && spec.max_input_tokens < (spec.context_window ?? 0) ? spec.max_input_tokens : undefined
    expect(info.maxInputTokens).toBe(inputCap)
    const encodings = modelToEncodingMap as Readonly<Record<string, string | undefined>>
    expect(info.tokenizer).toBe(encodings[id] ?? 'o200k_base')
  })

  it('counts exactly, with no safety margin', () => {
    const openAI = listModels().filter((info) => info.provider === 'openai')
    expect(openAI.length).toBeGreaterThan(30)
    for (const info of openAI) {
      expect(info.exactTokenizer).toBe(true)
      expect(info.safetyMargin).toBe(0)
      expect(info.tokenizer).not.toBe('heuristic')
    }
  })

  it('maps the o200k_harmony encoding of gpt-oss to o200k_base', () => {
    expect(modelToEncodingMap['gpt-oss-20b']).toBe('o200k_harmony')
    expect(modelInfo('gpt-oss-20b').tokenizer).toBe('o200k_base')
  })

  it('holds the input budget to a separate prompt cap (GPT-5: 272k of 400k)', () => {
    const spec = specOf('gpt-5')
    expect(spec.max_input_tokens).toBeLessThan(spec.context_window ?? 0)
    const policy = policyForModel('gpt-5')
    expect(inputBudget(policy)).toBe(spec.max_input_tokens)
    expect(policy.maxInputTokens).toBeLessThanOrEqual(spec.context_window ?? 0)
  })

  it('sizes the default reserve as an eighth of the window, 1k to 32k', () => {
    expect(policyForModel('gpt-4o').reserveOutputTokens).toBe(16_000)
    expect(policyForModel('o3').reserveOutputTokens).toBe(25_000)
    expect(policyForModel('gpt-4.1').reserveOutputTokens).toBe(32_768)
    expect(policyForModel('gpt-4').reserveOutputTokens).toBe(1_024)
  })
})

describe('approximate tokenizers', () => {
  it('take the safety margin off the window', () => {
    const approximate = listModels().filter((info) => !info.exactTokenizer)
    expect(approximate.length).toBeGreaterThan(20)
    for (const info of approximate) {
      expect(info.safetyMargin).toBeGreaterThan(0)
      expect(policyForModel(info.id).maxInputTokens).toBe(Math.floor(info.contextWindow * (1 - info.safetyMargin)))
    }
    expect(modelInfo('claude-sonnet-4-5').safetyMargin).toBe(APPROXIMATE_TOKENIZER_SAFETY_MARGIN)
    expect(policyForModel('claude-sonnet-4-5').maxInputTokens).toBe(170_000)
  })
})

describe('policyForModel overrides', () => {
  it('apply over the model defaults', () => {
    const policy = policyForModel('gpt-4o', { reserveOutputTokens: 4_096, keepLastTurns: 5, name: 'chat' })
    expect(policy.reserveOutputTokens).toBe(4_096)
    expect(policy.keepLastTurns).toBe(5)
    expect(policy.name).toBe('chat')
    expect(policy.model).toBe('gpt-4o')
    expect(policy.maxInputTokens).toBe(128_000)
  })

  it('name the policy after the id as given', () => {
    const policy = policyForModel('anthropic/claude-sonnet-4.5')
    expect(policy.name).toBe('anthropic/claude-sonnet-4.5')
    expect(policy.model).toBe('anthropic/claude-sonnet-4.5')
  })

  it('scale the default reserve to a smaller maxInputTokens', () => {
    const policy = policyForModel('claude-sonnet-4-5', { maxInputTokens: 8_192 })
    expect(policy.maxInputTokens).toBe(8_192)
    expect(policy.reserveOutputTokens).toBe(1_024)
  })
})

describe('registerModel', () => {
  it('adds a model until the returned function removes it', () => {
    expect(() => modelInfo('llama3.2:3b')).toThrow(UnknownModelError)
    const unregister = registerModel(localModel)
    try {
      expect(modelInfo('llama3.2:3b')).toEqual(localModel)
      expect(modelInfo('LLAMA3.2:3B').id).toBe('llama3.2:3b')
      expect(listModels().some((info) => info.id === 'llama3.2:3b')).toBe(true)
      const policy = policyForModel('llama3.2:3b')
      expect(policy.tokenizer).toBe('heuristic')
      expect(policy.maxInputTokens).toBe(Math.floor(8_192 * 0.8))
      expect(policy.reserveOutputTokens).toBe(1_024)
    } finally {
      unregister()
    }
    expect(() => modelInfo('llama3.2:3b')).toThrow(UnknownModelError)
  })

  it('resolves prefixed spellings of a registered id', () => {
    const unregister = registerModel({ ...localModel, id: 'my-local-model' })
    try {
      expect(modelInfo('ollama/my-local-model').id).toBe('my-local-model')
    } finally {
      unregister()
    }
  })

  it('overrides a built-in model and restores it when removed', () => {
    const builtIn = modelInfo('gpt-4o')
    const unregister = registerModel({ ...builtIn, contextWindow: 64_000 })
    try {
      expect(modelInfo('gpt-4o').contextWindow).toBe(64_000)
      expect(modelInfo('openai/gpt-4o').contextWindow).toBe(64_000)
      expect(listModels().filter((info) => info.id === 'gpt-4o')).toHaveLength(1)
    } finally {
      unregister()
    }
    expect(modelInfo('gpt-4o')).toBe(builtIn)
  })

  it.each<[string, unknown, string]>([
    ['a missing field', { ...localModel, contextWindow: undefined }, 'contextWindow'],
    ['a negative window', { ...localModel, contextWindow: -1 }, 'contextWindow'],
    ['a fractional output limit', { ...localModel, maxOutputTokens: 1.5 }, 'maxOutputTokens'],
    ['an output limit above the window', { ...localModel, maxOutputTokens: 9_000 }, 'maxOutputTokens'],
    ['a margin of 1', { ...localModel, safetyMargin: 1 }, 'safetyMargin'],
    ['an exact heuristic', { ...localModel, exactTokenizer: true }, 'exactTokenizer'],
    ['an unknown tokenizer', { ...localModel, tokenizer: 'llama3' }, 'tokenizer'],
    ['an empty id', { ...localModel, id: '  ' }, 'id'],
    ['negative pricing', { ...localModel, pricing: { inputPerMillion: -1, outputPerMillion: 1 } }, 'pricing.inputPerMillion'],
    ['an unknown key', { ...localModel, contextLength: 8_192 }, ''],
  ])('rejects %s', (_label, info, path) => {
    const error = thrownBy(() => registerModel(info as ModelInfo))
    expect(error).toBeInstanceOf(InvalidModelInfoError)
    expect(ThreadlensError.isInstance(error)).toBe(true)
    const issues = (error as InvalidModelInfoError).issues
    expect(issues.map((issue) => issue.path)).toContain(path)
    expect((error as Error).message).toMatch(/^Invalid model info: /)
    expect(() => modelInfo('llama3.2:3b')).toThrow(UnknownModelError)
  })
})

describe('estimateCost', () => {
  it('prices input and output per million tokens', () => {
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, 'gpt-4o')).toBeCloseTo(12.5)
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 0 }, 'gpt-4o-2024-08-06')).toBeCloseTo(2.5)
    expect(estimateCost({ inputTokens: 10_000, outputTokens: 2_000 }, 'anthropic/claude-sonnet-4.5')).toBeCloseTo(0.06)
  })

  it('is undefined when the model or its price is unknown', () => {
    expect(estimateCost({ inputTokens: 1, outputTokens: 1 }, 'no-such-model')).toBeUndefined()
    expect(estimateCost({ inputTokens: 1, outputTokens: 1 }, 'llama-3.3-70b-instruct')).toBeUndefined()
    expect(estimateCost({ inputTokens: 1, outputTokens: 1 }, 'gpt-4o-2024-05-13')).toBeUndefined()
  })
})

describe('cache pricing', () => {
  it('prices Anthropic cache writes at 1.25× (1h: 2×) and reads at 0.1× of input, with per-model minimums', () => {
    expect(modelInfo('claude-sonnet-4-5').pricing).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cacheReadPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
      cacheWriteLongPerMillion: 6,
      minimumCacheableTokens: 1_024,
    })
    expect(modelInfo('claude-haiku-4-5').pricing?.minimumCacheableTokens).toBe(4_096)
    expect(modelInfo('gpt-4o').pricing?.cacheReadPerMillion).toBe(1.25)
    expect(modelInfo('gpt-4').pricing?.cacheReadPerMillion).toBeUndefined()
  })

  it('estimateCost prices reported cache reads and writes', () => {
    // 10,000 prompt tokens: 8,000 read, 1,000 written, 1,000 plain; 500 out.
    expect(
      estimateCost({ inputTokens: 10_000, outputTokens: 500, cachedInputTokens: 8_000, cacheWriteInputTokens: 1_000 }, 'claude-sonnet-4-5'),
    ).toBeCloseTo((1_000 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 500 * 15) / 1e6, 12)
    expect(estimateCost({ inputTokens: 10_000, outputTokens: 0 }, 'claude-sonnet-4-5')).toBeCloseTo(0.03, 12)
  })
})
