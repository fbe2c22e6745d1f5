import { definePolicy, type ContextPolicy, type PolicyOptions } from './policy'

/**
 * Starting points; each takes overrides. Presets are ordinary policies: inspect or store them.
 */
export const presets = {
  // Repeated on purpose: the three presets below share one shape (each spells out all its own settings, so it reads whole).
  /**
   * 8k window, 1k reserved for output, older tool results masked, half the history room for recall
   * (pass `recall: createRecallIndex()` to `project()`): small local models and cheap calls.
   */
  shortContext(overrides: PolicyOptions = {}): ContextPolicy {
    return definePolicy({
      name: 'short',
      maxInputTokens: 8192,
      reserveOutputTokens: 1024,
      keepLastTurns: 2,
      cacheFriendly: true,
      toolTrace: 'masked',
      dedupeToolResults: true,
      recall: {},
      ...overrides,
    })
  },
  /** 128k window, 8k reserved for output, no window limits, full tool traces, recall once the chat outgrows the window: long documents and conversations. */
  longContext(overrides: PolicyOptions = {}): ContextPolicy {
    return definePolicy({
      name: 'long',
      maxInputTokens: 128_000,
      reserveOutputTokens: 8192,
      keepLastTurns: 4,
      cacheFriendly: true,
      dedupeToolResults: true,
      recall: {},
      ...overrides,
    })
  },
  /**
   * 32k window, 4k reserved, older requests reduced to their outcome, big old outputs pruned, a quarter
   * of the history room for recall (old tool results come back whole when a question needs them): agents
   * that call tools a lot.
   */
  toolFocused(overrides: PolicyOptions = {}): ContextPolicy {
    return definePolicy({
      name: 'tool-focused',
      maxInputTokens: 32_000,
      reserveOutputTokens: 4096,
      keepLastTurns: 3,
      unresolvedToolCalls: 'interrupt',
      cacheFriendly: true,
      toolTrace: 'boundary',
      dedupeToolResults: true,
      pruneToolOutputsOverTokens: 1500,
      recall: { share: 0.25 },
      ...overrides,
    })
  },
} as const

export type PresetName = keyof typeof presets
