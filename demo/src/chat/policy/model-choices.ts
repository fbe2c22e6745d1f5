import { modelInfo, policyForModel } from '@threadlens/core/models'
import { exampleModels, modelOption, namedChoice, presetChoices, sharedPolicyOptions, type ChatPolicyChoice } from './chat-policies'

// Core's model table (its OpenAI rows come from gpt-tokenizer's model metadata, about 9 KB gzip):
// a chunk of its own, loaded by `usePolicyChoices`.

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
  const option = modelOption(modelId)
  return namedChoice(option.id, option.label, policyForModel(modelId, sharedPolicyOptions))
}

/** The presets, then a policy per model: the configured model's first (when known), then the examples. */
export function policyChoices(configuredModel: string | undefined): readonly ChatPolicyChoice[] {
  const models = [...new Set([...(configuredModel === undefined ? [] : [configuredModel]), ...exampleModels])]
  return [...presetChoices, ...models.map(modelChoice).filter((choice): choice is ChatPolicyChoice => choice !== undefined)]
}
