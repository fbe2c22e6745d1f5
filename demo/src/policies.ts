import { definePolicy, presets, type ContextPolicy } from '@threadlens/core'
import { sampleSystemPrompt } from './sample-thread'

export interface PolicyChoice {
  readonly id: string
  readonly label: string
  readonly policy: ContextPolicy
}

const systemPrompt = sampleSystemPrompt

/** The presets the selector offers; "tiny" is small enough that dropping is visible on the sample thread. */
export const policyChoices: readonly PolicyChoice[] = [
  { id: 'short', label: 'short context (8k)', policy: presets.shortContext({ systemPrompt }) },
  { id: 'long', label: 'long context (128k)', policy: presets.longContext({ systemPrompt }) },
  { id: 'tool-focused', label: 'tool-focused (32k)', policy: presets.toolFocused({ systemPrompt }) },
  { id: 'tiny', label: 'tiny (1k)', policy: definePolicy({ name: 'tiny', maxInputTokens: 1024, reserveOutputTokens: 256, keepLastTurns: 1, systemPrompt }) },
]

export const defaultPolicyId = 'short'

export function policyById(id: string): PolicyChoice {
  return policyChoices.find((choice) => choice.id === id) ?? (policyChoices[0] as PolicyChoice)
}
