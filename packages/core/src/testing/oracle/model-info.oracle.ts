// TEST ONLY: the zod schema registerModel checked models with before its hand-written reader (the oracle).
import { z } from 'zod/mini'
import type { ModelInfo, ModelPricing } from '../../models/model-info'

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
