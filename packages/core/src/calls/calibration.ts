import { array, int, number, object, string, type Reader } from '../validation/readers'
import type { CallRecord } from './call-record'

/** One call's counts: what the local counter said was sent, and what the provider reported. */
export interface CalibrationSample {
  /** `projection.meta.tokens.total`. */
  readonly local: number
  /** The provider's prompt tokens (`usage.input_tokens` + cache reads and writes / `prompt_tokens`). */
  readonly reported: number
  /** Messages sent: a per-message overhead the counter leaves out shows up per message. */
  readonly messages: number
}

/**
 * How a model's provider counts against a local counter, over recent calls: `ratio` is the mean of
 * reported / local, `spread` its standard deviation. Persisted per model and counter by the store.
 */
export interface TokenCalibration {
  readonly model: string
  readonly counter: string
  /** Most recent calls, oldest first, at most `calibrationDefaults.window`. */
  readonly samples: readonly CalibrationSample[]
  readonly ratio: number
  readonly spread: number
  /** Calls seen in all (the window keeps only the newest). */
  readonly calls: number
  /** Milliseconds since the epoch. */
  readonly updatedAt: number
}

export const calibrationSampleReader: Reader<CalibrationSample> = object<CalibrationSample>({
  local: int({ above: 0 }),
  reported: int({ above: 0 }),
  messages: int({ min: 0 }),
})

/** Checks a calibration read from the store. */
export const tokenCalibrationReader: Reader<TokenCalibration> = object<TokenCalibration>({
  model: string({ min: 1, max: 256 }),
  counter: string({ min: 1, max: 64 }),
  samples: array(calibrationSampleReader, 1_000),
  ratio: number({ above: 0 }),
  spread: number({ min: 0 }),
  calls: int({ min: 0 }),
  updatedAt: number({ min: 0 }),
})

export const calibrationDefaults = {
  /** Recent calls the calibration is computed over: old ones age out, so it follows a changed model. */
  window: 40,
  /** Calls needed before a calibration replaces the model's default margin. */
  minimumSamples: 5,
  /** Standard deviations of the ratio added above its mean: the margin covers nearly all recent calls. */
  deviations: 3,
  /** Never plan closer to the edge than this share of the window, however steady the ratio. */
  floor: 0.005,
  /**
   * Prompt tokens per message a provider may add for the chat format (OpenAI: about 3–4): for an exact
   * tokenizer, a difference beyond this is a count mismatch.
   */
  perMessageOverhead: 8,
} as const

/** Adds one call's counts; pure (returns a new calibration). Samples with no reported count are ignored by the caller. */
export function addCalibrationSample(
  previous: TokenCalibration | undefined,
  sample: CalibrationSample,
  context: { readonly model: string; readonly counter: string; readonly now: number; readonly window?: number },
): TokenCalibration {
  const window = context.window ?? calibrationDefaults.window
  const kept = previous !== undefined && previous.model === context.model && previous.counter === context.counter ? previous.samples : []
  const samples = [...kept, sample].slice(-window)
  const ratios = samples.map((each) => each.reported / each.local)
  const ratio = ratios.reduce((sum, each) => sum + each, 0) / ratios.length
  const variance = ratios.reduce((sum, each) => sum + (each - ratio) ** 2, 0) / Math.max(1, ratios.length - 1)
  return {
    model: context.model,
    counter: context.counter,
    samples,
    ratio,
    spread: Math.sqrt(variance),
    calls: (previous?.calls ?? 0) + 1,
    updatedAt: context.now,
  }
}

/**
 * The calibration sample an answered call's record holds (local count, provider count, messages),
 * or `undefined` when the provider reported no usage or the call did not finish.
 */
export function calibrationSampleOf(
  record: CallRecord,
): { readonly model: string; readonly counter: string; readonly sample: CalibrationSample } | undefined {
  const { inputTokens, localInputTokens, sentMessages } = record
  if (inputTokens === undefined || localInputTokens === undefined || inputTokens <= 0 || localInputTokens <= 0) return undefined
  if (record.stopReason === 'error' || record.stopReason === 'abort') return undefined
  return { model: record.model, counter: record.counter, sample: { local: localInputTokens, reported: inputTokens, messages: sentMessages ?? 0 } }
}

/** What a calibration says about planning: how much of the window to use, and whether the counter is off. */
export interface CalibrationVerdict {
  /** `calibrated` once there are `minimumSamples`; until then the model's default margin stands. */
  readonly source: 'default' | 'calibrated'
  /**
   * Provider tokens per local token to plan with: the mean ratio plus `deviations` spreads, and never
   * below the largest recent ratio. A budget of `B` provider tokens is `B / upperRatio` local tokens.
   */
  readonly upperRatio: number
  /**
   * For an exact tokenizer: set when the provider counts more (or fewer) than the local count plus the
   * per-message overhead allows — the counter is not the model's, or the request carries what the
   * projection does not count. Never hidden: the session reports it and devtools shows it.
   */
  readonly mismatch: { readonly tokensPerMessage: number; readonly ratio: number } | undefined
}

/** Pure: a calibration in, the ratio to plan with out. `defaultMargin` is the model's `safetyMargin`. */
export function calibrationVerdict(
  calibration: TokenCalibration | undefined,
  options: { readonly exact: boolean; readonly defaultMargin: number },
): CalibrationVerdict {
  const fallback = 1 / (1 - options.defaultMargin)
  if (calibration === undefined || calibration.samples.length < calibrationDefaults.minimumSamples) {
    return { source: 'default', upperRatio: fallback, mismatch: undefined }
  }
  const ratios = calibration.samples.map((each) => each.reported / each.local)
  const upper = Math.max(calibration.ratio + calibrationDefaults.deviations * calibration.spread, ...ratios) * (1 + calibrationDefaults.floor)
  let mismatch: CalibrationVerdict['mismatch']
  if (options.exact) {
    const extra = calibration.samples.reduce((sum, each) => sum + (each.reported - each.local), 0)
    const messages = calibration.samples.reduce((sum, each) => sum + Math.max(1, each.messages), 0)
    const tokensPerMessage = extra / messages
    if (Math.abs(tokensPerMessage) > calibrationDefaults.perMessageOverhead) mismatch = { tokensPerMessage, ratio: calibration.ratio }
  }
  return { source: 'calibrated', upperRatio: upper, mismatch }
}

/**
 * The prompt budget in local tokens that keeps the provider's count within `promptTokens`
 * (`maxInputTokens − reserveOutputTokens` as the provider counts).
 */
export function calibratedPromptBudget(promptTokens: number, verdict: CalibrationVerdict): number {
  return Math.max(1, Math.floor(promptTokens / verdict.upperRatio))
}
