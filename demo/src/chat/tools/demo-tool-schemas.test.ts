import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { demoToolSchemas } from './demo-tool-schemas'
import { demoTools } from './demo-tools'

describe('demoToolSchemas', () => {
  it('is what the tools send to the model, key order included (the meter counts the serialized text)', () => {
    const derived = demoTools(createMemoryBackedStores().memory, 'assistant').map((tool) => tool.schema)
    expect(demoToolSchemas).toStrictEqual(derived)
    expect(JSON.stringify(demoToolSchemas)).toBe(JSON.stringify(derived))
  })
})
