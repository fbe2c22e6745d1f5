import { definePolicy, type ContextPolicy, type PolicyOptions } from './policy'

/**
 * Starting points; each takes overrides. Presets are ordinary policies: inspect or store them.
 */
export const presets = {
  /** 8k window, 1k reserved for output, older tool results masked: small local models and cheap calls. */
  shortContext(overrides: PolicyOptions = {}): ContextPolicy {
    return definePolicy({ name: 'short', maxInputTokens: 8192, reserveOutputTokens: 1024, keepLastTurns: 2, cacheFriendly: true, toolTrace: 'masked', dedupeToolResults: true, ...overrides })
  },
  /** 128k window, 8k reserved for output, no window limits, full tool traces: long documents and conversations. */
  longContext(overrides: PolicyOptions = {}): ContextPolicy {
    return definePolicy({ name: 'long', maxInputTokens: 128_000, reserveOutputTokens: 8192, keepLastTurns: 4, cacheFriendly: true, dedupeToolResults: true, ...overrides })
  },
  /** 32k window, 4k reserved, older requests reduced to their outcome, big old outputs pruned: agents that call tools a lot. */
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
      ...overrides,
    })
  },
} as const

export type PresetName = keyof typeof presets
