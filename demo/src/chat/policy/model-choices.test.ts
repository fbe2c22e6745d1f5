import { describe, expect, it } from 'vitest'
import { exampleModels, modelOption, presetChoices } from './chat-policies'
import { policyChoices } from './model-choices'

describe('Policy choices', () => {
  it('list before the model table loads exactly the entries it gives once loaded, with no model configured', () => {
    const loaded = policyChoices(undefined)
    expect([...presetChoices, ...exampleModels.map(modelOption)].map(({ id, label }) => ({ id, label }))).toEqual(
      loaded.map(({ id, label }) => ({ id, label })),
    )
    for (const choice of loaded) expect(choice.policy.name).toBe(choice.label)
  })

  it('put a configured model first when threadlens knows it, and leave out one it does not', () => {
    expect(policyChoices('gpt-4.1').map((choice) => choice.id)).toEqual([
      'short',
      'long',
      'tool-focused',
      'model:gpt-4.1',
      ...exampleModels.map((model) => `model:${model}`),
    ])
    expect(policyChoices('my-own-model').map((choice) => choice.id)).toEqual(policyChoices(undefined).map((choice) => choice.id))
  })
})
