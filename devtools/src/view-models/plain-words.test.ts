import { definePolicy, type DropReason } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { calibrationWords, reasonInWords } from './plain-words'

const reasons: readonly (DropReason | 'summarized' | 'masked' | 'pruned' | 'deduped')[] = [
  'reset',
  'kind',
  'applied',
  'superseded',
  'unneeded',
  'window',
  'cache-window',
  'isolated',
  'budget',
  'unresolved',
  'orphan',
  'summarized',
  'masked',
  'pruned',
  'deduped',
]

describe('reasons in plain words', () => {
  it('says, for every reason, what happened in a sentence, with no projector shorthand', () => {
    for (const reason of reasons) {
      const words = reasonInWords(reason, 12, definePolicy({ maxTurns: 4, keepLastTurns: 3, pruneToolOutputsOverTokens: 500 }))
      expect(words.short.length, reason).toBeGreaterThan(5)
      expect(words.sentence, reason).toMatch(/^[A-Z].*\.$/)
      expect(words.sentence, reason).not.toMatch(/#\d+–#|reduction floor|byte \d/)
    }
  })

  it('names the setting that changes it, with the policy’s own values', () => {
    const policy = definePolicy({ maxInputTokens: 8_192, reserveOutputTokens: 1_024, keepLastTurns: 3, toolTrace: 'masked' })
    expect(reasonInWords('masked', undefined, policy).sentence).toBe(
      "Shortened: tool results older than the last 3 turns are sent as a short placeholder (name, call id and size) to save room (toolTrace 'masked'). Raise keepLastTurns to keep more results whole, or set toolTrace to 'transparent'.",
    )
    expect(reasonInWords('budget', undefined, policy).sentence).toContain('(7,168 tokens: maxInputTokens minus reserveOutputTokens)')
    expect(reasonInWords('window', undefined, definePolicy({ maxMessages: 30 })).sentence).toBe(
      'Left out: older than the last 30 messages the policy sends. Raise maxTurns or maxMessages to send more history.',
    )
    expect(reasonInWords('window').sentence).toBe(
      'Left out: older than the turns the policy sends. Raise maxTurns or maxMessages to send more history.',
    )
    expect(reasonInWords('window', undefined, definePolicy({ maxTurns: 4 })).sentence).toBe(
      'Left out: older than the last 4 turns the policy sends. Raise maxTurns or maxMessages to send more history.',
    )
  })

  it('puts a calibration in words', () => {
    expect(calibrationWords({ ratio: 1.119, calls: 10, upperRatio: 1.147, calibrated: true, minimumSamples: 5 })).toBe(
      'counts 11.9% more tokens than the local counter (over 10 calls); budgets leave 14.7% room for it.',
    )
    expect(calibrationWords({ ratio: 1, calls: 3, upperRatio: 1.005, calibrated: false, minimumSamples: 5 })).toBe(
      'counts the same as the local counter (over 3 calls); until 5 calls have reported usage, budgets leave 0.5% room by default.',
    )
    expect(calibrationWords({ ratio: 0.97, calls: 1, upperRatio: 1, calibrated: true, minimumSamples: 5 })).toBe(
      'counts 3.0% fewer tokens than the local counter (over 1 call); budgets need no extra room.',
    )
  })
})
