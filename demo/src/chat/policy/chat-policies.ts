import { presets, withPolicy, type ContextPolicy, type PolicyOptions } from '@threadlens/core'
import { modelInfo, policyForModel } from '@threadlens/core/models'
import { SYSTEM_PROMPT } from '../chat-config'

export interface ChatPolicyChoice {
  readonly id: string
  readonly label: string
  readonly policy: ContextPolicy
}

// Every choice keeps the demo's system prompt and renders the `world` memory space (the notes) into each call.
const shared: PolicyOptions = { systemPrompt: SYSTEM_PROMPT, memorySpaces: ['world'] }

/** Models offered with a policy of their own even offline (their window, output limit and tokenizer). */
export const exampleModels = ['gpt-4o-mini', 'claude-haiku-4-5', 'llama-3.1-8b-instruct'] as const

/** A choice whose policy carries the label as its name: the devtools name the app's policy as the chat does. */
function named(id: string, label: string, policy: ContextPolicy): ChatPolicyChoice {
  return { id, label, policy: withPolicy(policy, { name: label }) }
}

export const presetChoices: readonly ChatPolicyChoice[] = [
  // An 8k window: read_document output is cut harder before it enters the thread, so one fits.
  named('short', 'Short context (8k)', presets.shortContext({ ...shared, toolOutputMaxLines: 200, toolOutputMaxBytes: 8000 })),
  named('long', 'Long context (128k)', presets.longContext(shared)),
  named('tool-focused', 'Tool-focused (32k)', presets.toolFocused({ ...shared, toolOutputMaxBytes: 16_000 })),
]

export const DEFAULT_POLICY_ID = 'short'

function isKnownModel(id: string): boolean {
  try {
    modelInfo(id)
    return true
  } catch {
    return false
  }
}

/** The per-model choice for `modelId`, or `undefined` when threadlens does not know the model. */
export function modelChoice(modelId: string): ChatPolicyChoice | undefined {
  if (!isKnownModel(modelId)) return undefined
  return named(`model:${modelId}`, `For ${modelId}`, policyForModel(modelId, shared))
}

/** The presets, then a policy per model: the configured model's first (when known), then the examples. */
export function policyChoices(configuredModel: string | undefined): readonly ChatPolicyChoice[] {
  const models = [...new Set([...(configuredModel === undefined ? [] : [configuredModel]), ...exampleModels])]
  return [...presetChoices, ...models.map(modelChoice).filter((choice): choice is ChatPolicyChoice => choice !== undefined)]
}

/** The choice with `id`, else the default preset. */
export function findPolicyChoice(choices: readonly ChatPolicyChoice[], id: string): ChatPolicyChoice {
  return choices.find((choice) => choice.id === id) ?? (choices.find((choice) => choice.id === DEFAULT_POLICY_ID) as ChatPolicyChoice)
}
