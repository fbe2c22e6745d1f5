import type { SimulatedCacheUsage } from './simulate-prompt-cache'

/** Cache usage as a provider reported it for one call (the fields of a model client's usage event). */
export interface ReportedCacheUsage {
  /** Every prompt token, cached ones included. */
  readonly inputTokens: number
  /** Read from the cache; absent when the provider did not say. */
  readonly cachedInputTokens?: number
  /** Written to the cache; absent when the provider did not say. */
  readonly cacheWriteInputTokens?: number
}

/**
 * How one call's reported cache reads compare with the prediction:
 * - `as-predicted`: within the tolerance;
 * - `unpredicted-miss`: the provider read less than predicted — a finding: the entry expired early,
 *   was evicted, the request was routed to another cache, or the prefix changed in a way the
 *   simulator cannot see (tool schemas, a model switch);
 * - `unpredicted-hit`: the provider read more than predicted (a cache warmed by another client or tab);
 * - `not-reported`: no usage, or no cache fields in it.
 */
export type CacheVerdict = 'as-predicted' | 'unpredicted-miss' | 'unpredicted-hit' | 'not-reported'

export interface CacheComparison {
  readonly predictedReadTokens: number
  readonly reportedReadTokens: number | undefined
  /** `reported − predicted` reads; `undefined` when not reported. */
  readonly difference: number | undefined
  readonly verdict: CacheVerdict
}

/**
 * Compares predicted and reported cache reads call by call. Token counts on the two sides come from
 * different tokenizers, so reads within `tolerance` (a share of the prompt, default 0.05) or within
 * 128 tokens (OpenAI's cache step) count as predicted. Pure.
 */
export function compareCacheUsage(
  predicted: readonly SimulatedCacheUsage[],
  reported: readonly (ReportedCacheUsage | undefined)[],
  options: { readonly tolerance?: number } = {},
): CacheComparison[] {
  const tolerance = options.tolerance ?? 0.05
  return predicted.map((prediction, index) => {
    const usage = reported[index]
    const reportedReadTokens = usage?.cachedInputTokens
    if (usage === undefined || reportedReadTokens === undefined) {
      return { predictedReadTokens: prediction.readTokens, reportedReadTokens: undefined, difference: undefined, verdict: 'not-reported' }
    }
    const difference = reportedReadTokens - prediction.readTokens
    const slack = Math.max(128, tolerance * Math.max(usage.inputTokens, prediction.inputTokens))
    const verdict: CacheVerdict = difference < -slack ? 'unpredicted-miss' : difference > slack ? 'unpredicted-hit' : 'as-predicted'
    return { predictedReadTokens: prediction.readTokens, reportedReadTokens, difference, verdict }
  })
}
