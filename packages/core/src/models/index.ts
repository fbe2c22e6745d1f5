/** @threadlens/core/models: known models' limits and prices, policies made from them, and the token estimate used until exact ranks load. */

export { InvalidModelInfoError, UnknownModelError } from '../errors/threadlens-error'
export type { ModelInfo, ModelPricing, ModelProvider, PolicyForModelOptions } from './models'
export { modelInfo, listModels, registerModel, policyForModel, estimateCost, APPROXIMATE_TOKENIZER_SAFETY_MARGIN } from './models'

export type { CounterSource } from '../tokens/counter-source'
export { ESTIMATE_MARGIN, estimatedTokenCounter, estimateTokens } from '../tokens/estimated-counter'
