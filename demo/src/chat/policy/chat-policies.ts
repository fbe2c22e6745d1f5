import { presets, withPolicy, type ContextPolicy, type PolicyOptions } from '@threadlens/core'
import { SYSTEM_PROMPT } from '../chat-config'

/** An entry of the policy menu. */
export interface ChatPolicyOption {
  readonly id: string
  readonly label: string
}

export interface ChatPolicyChoice extends ChatPolicyOption {
  readonly policy: ContextPolicy
}

// Every choice keeps the demo's system prompt, renders the `world` memory space (the notes) into each
// call, and recalls the older messages that match the newest one (a quarter of the history room).
export const sharedPolicyOptions: PolicyOptions = { systemPrompt: SYSTEM_PROMPT, memorySpaces: ['world'], recall: { share: 0.25 } }

/** Models offered with a policy of their own even offline (their window, output limit and tokenizer). */
export const exampleModels = ['gpt-4o-mini', 'claude-haiku-4-5', 'llama-3.1-8b-instruct'] as const

/** A choice whose policy carries the label as its name: the devtools name the app's policy as the chat does. */
export function namedChoice(id: string, label: string, policy: ContextPolicy): ChatPolicyChoice {
  return { id, label, policy: withPolicy(policy, { name: label }) }
}

/** The menu entry of `modelId`'s own policy. */
export function modelOption(modelId: string): ChatPolicyOption {
  return { id: `model:${modelId}`, label: `For ${modelId}` }
}

export function isModelChoiceId(id: string): boolean {
  return id.startsWith('model:')
}

export const presetChoices: readonly ChatPolicyChoice[] = [
  // An 8k window: read_document output is cut harder before it enters the thread, so one fits.
  namedChoice('short', 'Short context (8k)', presets.shortContext({ ...sharedPolicyOptions, toolOutputMaxLines: 200, toolOutputMaxBytes: 8000 })),
  namedChoice('long', 'Long context (128k)', presets.longContext(sharedPolicyOptions)),
  namedChoice('tool-focused', 'Tool-focused (32k)', presets.toolFocused({ ...sharedPolicyOptions, toolOutputMaxBytes: 16_000 })),
]

export const DEFAULT_POLICY_ID = 'short'

/** The choice with `id`, else the default preset. */
export function findPolicyChoice(choices: readonly ChatPolicyChoice[], id: string): ChatPolicyChoice {
  return choices.find((choice) => choice.id === id) ?? (choices.find((choice) => choice.id === DEFAULT_POLICY_ID) as ChatPolicyChoice)
}
