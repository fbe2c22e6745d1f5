/** @threadlens/core/models: known models' limits and prices, and policies made from them. */

export { InvalidModelInfoError, UnknownModelError } from '../errors/threadlens-error'
export type { ModelInfo, ModelPricing, ModelProvider, PolicyForModelOptions } from '../policy/models'
export {
  modelInfo,
  listModels,
  registerModel,
  policyForModel,
  estimateCost,
  APPROXIMATE_TOKENIZER_SAFETY_MARGIN,
} from '../policy/models'
