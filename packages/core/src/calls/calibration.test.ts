import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { modelInfo, policyForModel } from '../models/models'
import {
  addCalibrationSample,
  calibratedPromptBudget,
  calibrationDefaults,
  calibrationVerdict,
  type CalibrationSample,
  type TokenCalibration,
} from './calibration'

const SEED = 20261123
const context = { model: 'claude-sonnet-4-5', counter: 'heuristic', now: 1 }

function calibrate(samples: readonly CalibrationSample[], start?: TokenCalibration): TokenCalibration {
  let calibration = start
  for (const sample of samples) calibration = addCalibrationSample(calibration, sample, context)
  if (calibration === undefined) throw new Error('no samples')
  return calibration
}

const sampleArbitrary = fc
  .record({
    local: fc.integer({ min: 100, max: 200_000 }),
    ratio: fc.double({ min: 0.5, max: 1.6, noNaN: true }),
    messages: fc.integer({ min: 1, max: 400 }),
  })
  .map(({ local, ratio, messages }): CalibrationSample => ({ local, reported: Math.max(1, Math.round(local * ratio)), messages }))

describe('token calibration (pure)', () => {
  it('keeps the newest `window` samples; ratio and spread are their mean and standard deviation', () => {
    const samples = Array.from({ length: 50 }, (_, index): CalibrationSample => ({ local: 1_000, reported: 1_000 + index, messages: 10 }))
    const calibration = calibrate(samples)
    expect(calibration.samples).toHaveLength(calibrationDefaults.window)
    expect(calibration.calls).toBe(50)
    const kept = samples.slice(-calibrationDefaults.window).map((each) => each.reported / each.local)
    const mean = kept.reduce((sum, each) => sum + each, 0) / kept.length
    expect(calibration.ratio).toBeCloseTo(mean, 12)
    const sd = Math.sqrt(kept.reduce((sum, each) => sum + (each - mean) ** 2, 0) / (kept.length - 1))
    expect(calibration.spread).toBeCloseTo(sd, 12)
  })

  it('starts over for another model or counter', () => {
    const first = calibrate([{ local: 100, reported: 150, messages: 1 }])
    const other = addCalibrationSample(first, { local: 100, reported: 90, messages: 1 }, { ...context, counter: 'o200k_base' })
    expect(other.samples).toHaveLength(1)
    expect(other.ratio).toBeCloseTo(0.9, 12)
  })

  it('keeps the default margin until there are enough calls', () => {
    const few = calibrate(Array.from({ length: calibrationDefaults.minimumSamples - 1 }, () => ({ local: 100, reported: 80, messages: 2 })))
    expect(calibrationVerdict(few, { exact: false, defaultMargin: 0.15 })).toEqual({ source: 'default', upperRatio: 1 / 0.85, mismatch: undefined })
    expect(policyForModel('claude-sonnet-4-5', {}, { calibration: few })).toEqual(policyForModel('claude-sonnet-4-5'))
  })

  it(`plans above every recent call's ratio, so no recent request would have gone over (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(sampleArbitrary, { minLength: calibrationDefaults.minimumSamples, maxLength: 60 }), (samples) => {
        const calibration = calibrate(samples)
        const verdict = calibrationVerdict(calibration, { exact: false, defaultMargin: 0.15 })
        for (const sample of calibration.samples) {
          const budget = calibratedPromptBudget(100_000, verdict)
          expect((budget * sample.reported) / sample.local).toBeLessThanOrEqual(100_000)
        }
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it(`the margin shrinks with steady calls and grows back when the error grows (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.double({ min: 0.6, max: 1.4, noNaN: true }), fc.double({ min: 0.05, max: 0.3, noNaN: true }), (ratio, noise) => {
        const steady = calibrate(Array.from({ length: 20 }, () => ({ local: 10_000, reported: Math.round(10_000 * ratio), messages: 20 })))
        const steadyVerdict = calibrationVerdict(steady, { exact: false, defaultMargin: 0.15 })
        // Steady: planned within a percent of the truth, far tighter than the fixed 15%.
        expect(steadyVerdict.upperRatio / ratio).toBeLessThan(1.01)
        const noisy = calibrate(
          Array.from({ length: 10 }, (_, index) => ({
            local: 10_000,
            reported: Math.round(10_000 * ratio * (index % 2 === 0 ? 1 + noise : 1 - noise)),
            messages: 20,
          })),
          steady,
        )
        const noisyVerdict = calibrationVerdict(noisy, { exact: false, defaultMargin: 0.15 })
        expect(noisyVerdict.upperRatio).toBeGreaterThan(steadyVerdict.upperRatio * (1 + noise * 0.9))
      }),
      { seed: SEED, numRuns: 200 },
    )
  })

  it('surfaces an exact counter that differs from the provider by more than the per-message overhead', () => {
    const overheadOnly = calibrate(Array.from({ length: 8 }, () => ({ local: 1_000, reported: 1_000 + 10 * 4 + 3, messages: 10 })))
    expect(calibrationVerdict(overheadOnly, { exact: true, defaultMargin: 0 }).mismatch).toBeUndefined()
    const off = calibrate(Array.from({ length: 8 }, () => ({ local: 1_000, reported: 1_150, messages: 10 })))
    expect(calibrationVerdict(off, { exact: true, defaultMargin: 0 }).mismatch).toEqual({ tokensPerMessage: 15, ratio: expect.closeTo(1.15, 9) })
    // A heuristic is expected to be off: its error becomes the margin, not a mismatch.
    expect(calibrationVerdict(off, { exact: false, defaultMargin: 0.15 }).mismatch).toBeUndefined()
  })

  it('policyForModel plans in local tokens so the provider count of a full prompt stays within its limit', () => {
    const info = modelInfo('claude-sonnet-4-5')
    const calibration = calibrate(
      Array.from({ length: 10 }, (_, index) => ({ local: 10_000, reported: Math.round(10_000 * (0.9 + index * 0.002)), messages: 20 })),
    )
    const policy = policyForModel('claude-sonnet-4-5', {}, { calibration })
    const fixed = policyForModel('claude-sonnet-4-5')
    const localPrompt = policy.maxInputTokens - policy.reserveOutputTokens
    const providerLimit = info.contextWindow - policy.reserveOutputTokens
    expect(localPrompt * Math.max(...calibration.samples.map((each) => each.reported / each.local))).toBeLessThanOrEqual(providerLimit)
    // The heuristic over-counts here, so the calibrated budget is larger than the fixed margin's.
    expect(localPrompt).toBeGreaterThan(fixed.maxInputTokens - fixed.reserveOutputTokens)
  })
})
