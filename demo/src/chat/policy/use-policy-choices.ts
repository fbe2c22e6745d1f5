import { useMemo, useRef } from 'react'
import { lazyModule, useLazyModule } from '../lazy-module'
import {
  exampleModels,
  findPolicyChoice,
  isModelChoiceId,
  modelOption,
  presetChoices,
  type ChatPolicyChoice,
  type ChatPolicyOption,
} from './chat-policies'

/** Core's model table and the per-model choices built from it. */
const modelChoices = lazyModule(() => import('./model-choices'))

export interface PolicyChoices {
  /** What the menu lists: the presets, then a policy per model (listed from the start). */
  readonly options: readonly ChatPolicyOption[]
  /** The choices whose policy is known: the presets, and the models' once their limits have loaded. */
  readonly choices: readonly ChatPolicyChoice[]
  /**
   * The chosen entry. While a model's policy is chosen and the table is not in yet: that entry with
   * the policy shown before (the meter moves once the model's own is in), or `undefined` when
   * nothing was shown before (a reload with a model's policy remembered).
   */
  readonly choice: ChatPolicyChoice | undefined
}

/**
 * The chat's policy choices. A model's policy needs core's model table, which a visit that only
 * reads does not: it loads at the first interaction (a press, a key, a tap), or at once when the
 * chosen policy or the configured model needs it. The menu lists the example models from the
 * start; a model's policy chosen before the table is in applies once it is, the policy shown
 * before staying until then.
 */
export function usePolicyChoices(configuredModel: string | undefined, policyId: string): PolicyChoices {
  const { loaded: models, failed } = useLazyModule(modelChoices, isModelChoiceId(policyId) || configuredModel !== undefined)
  const shown = useRef<ChatPolicyChoice | undefined>(undefined)
  const result = useMemo((): PolicyChoices => {
    if (models !== undefined) {
      const choices = models.policyChoices(configuredModel)
      return { options: choices, choices, choice: findPolicyChoice(choices, policyId) }
    }
    const options = [...presetChoices, ...exampleModels.map(modelOption)]
    if (!isModelChoiceId(policyId) || failed) return { options, choices: presetChoices, choice: findPolicyChoice(presetChoices, policyId) }
    const pending = options.find((option) => option.id === policyId) ?? modelOption(policyId.slice('model:'.length))
    return { options, choices: presetChoices, choice: shown.current === undefined ? undefined : { ...shown.current, ...pending } }
  }, [models, failed, configuredModel, policyId])
  shown.current = result.choice ?? shown.current
  return result
}
