import { definePolicy, presets, withPolicy, type ContextPolicy } from '@threadlens/core'
import { sampleSystemPrompt } from './sample-thread'

export interface PolicyChoice {
  readonly id: string
  readonly label: string
  readonly policy: ContextPolicy
}

const systemPrompt = sampleSystemPrompt

/** A choice whose policy carries the label as its name: the devtools name the page's policy as the page does. */
function named(id: string, label: string, policy: ContextPolicy): PolicyChoice {
  return { id, label, policy: withPolicy(policy, { name: label }) }
}

/** The presets the selector offers; "tiny" is small enough that dropping is visible on the sample thread. */
export const policyChoices: readonly PolicyChoice[] = [
  named('short', 'short context (8k)', presets.shortContext({ systemPrompt })),
  named('long', 'long context (128k)', presets.longContext({ systemPrompt })),
  named('tool-focused', 'tool-focused (32k)', presets.toolFocused({ systemPrompt })),
  named('tiny', 'tiny (1k)', definePolicy({ maxInputTokens: 1024, reserveOutputTokens: 256, keepLastTurns: 1, systemPrompt })),
  // The tiny window again, a third of its history room kept for older entries that match the last question.
  named(
    'tiny-recall',
    'tiny + recall (1k)',
    definePolicy({ maxInputTokens: 1024, reserveOutputTokens: 256, keepLastTurns: 1, systemPrompt, recall: { share: 0.34 } }),
  ),
]

export const defaultPolicyId = 'short'

export function policyById(id: string): PolicyChoice {
  return policyChoices.find((choice) => choice.id === id) ?? (policyChoices[0] as PolicyChoice)
}
