import { definePolicy, withPolicy } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { changedOptions, fieldChange, policyFields } from './policy-fields'

const field = (name: string) => policyFields.find((item) => item.name === name) as (typeof policyFields)[number]

describe('policy fields', () => {
  it('turns form values into policy changes; empty clears an optional limit', () => {
    const base = definePolicy({ maxTurns: 4 })
    expect(withPolicy(base, fieldChange(field('maxTurns'), '')).maxTurns).toBeUndefined()
    expect(withPolicy(base, fieldChange(field('maxTurns'), '2')).maxTurns).toBe(2)
    expect(withPolicy(base, fieldChange(field('cacheFriendly'), true)).cacheFriendly).toBe(true)
    expect(withPolicy(base, fieldChange(field('toolTrace'), 'masked')).toolTrace).toBe('masked')
    expect(withPolicy(base, fieldChange(field('systemPrompt'), '')).systemPrompt).toBeUndefined()
    expect(() => withPolicy(base, fieldChange(field('maxInputTokens'), 'abc'))).toThrow()
  })

  it('every field names a real policy option', () => {
    const policy = definePolicy({})
    // Options with no default (a text, an optional limit, recall) are absent from a default policy.
    for (const item of policyFields)
      expect(
        Object.keys(policy).includes(item.name) || item.kind === 'text' || item.kind === 'toggle' || (item.kind === 'number' && item.optional),
      ).toBe(true)
    expect(Object.keys(definePolicy({ recall: {} }))).toContain('recall')
  })

  it('lists changed options', () => {
    expect(changedOptions(definePolicy({}), definePolicy({ maxTurns: 3 }))).toEqual(['maxTurns: unset → 3'])
  })

  it('shows an option group with spaces and long texts cut, so a narrow panel can wrap it', () => {
    const [line] = changedOptions(definePolicy({ recall: {} }), definePolicy({}))
    expect(line).toBe(
      'recall: { share: 0.5, maxTokens: 4096, neighbors: 1, queryTurns: 1, maxHits: 64, dates: true, header: "Recalled from earlier in this conversa…" } → unset',
    )
    expect(Math.max(...(line ?? '').split(' ').map((word) => word.length))).toBeLessThan(45)
  })
})
