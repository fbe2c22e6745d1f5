import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { InvalidEntryError, InvalidPolicyError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { parseEntryInput } from '../entries/entry-schema'
import { formatIssues, issuePath, issuesText, safeParse } from './zod-issues'
import { thrownBy } from '../testing/thrown-by'

describe('zod issues', () => {
  it("give zod's English messages although zod/mini loads no locale", () => {
    const schema = z.strictObject({ name: z.string().check(z.minLength(1)), count: z.int().check(z.nonnegative()) })
    const parsed = safeParse(schema, { name: '', count: 1.5, extra: true })
    expect(parsed.success).toBe(false)
    if (parsed.success) return
    expect(formatIssues(parsed.error)).toEqual([
      { path: 'name', message: 'Too small: expected string to have >=1 characters' },
      { path: 'count', message: 'Invalid input: expected int, received number' },
      { path: '', message: 'Unrecognized key: "extra"' },
    ])
    // Without them every message would be the same word: what the per-parse messages are for.
    expect(schema.safeParse({ name: '' }).error?.issues[0]?.message).toBe('Invalid input')
  })

  it('reach the public errors: policies and entries name the field and say what is wrong', () => {
    const policyError = thrownBy(() => definePolicy({ maxInputTokens: 4096, reserveOutputTokens: -5 }))
    expect(policyError).toBeInstanceOf(InvalidPolicyError)
    expect((policyError as InvalidPolicyError).message).toBe('Invalid policy: reserveOutputTokens: Too small: expected number to be >=0')
    const entryError = thrownBy(() => parseEntryInput({ kind: 'message', payload: { role: 'user', content: 3 } }))
    expect(entryError).toBeInstanceOf(InvalidEntryError)
    expect((entryError as InvalidEntryError).message).toContain('payload.content')
    expect((entryError as InvalidEntryError).message).toContain('Invalid input: expected string, received number')
  })

  it('write paths and lists of issues one way (fast-check seed 14014, 200 runs)', () => {
    const segment = fc.oneof(fc.string({ maxLength: 8 }), fc.nat(99))
    const issue = fc.record({ path: fc.array(segment, { maxLength: 4 }), message: fc.string({ minLength: 1, maxLength: 20 }) })
    fc.assert(
      fc.property(fc.array(issue, { minLength: 1, maxLength: 5 }), (issues) => {
        const formatted = issues.map((one) => ({ path: issuePath(one.path), message: one.message }))
        for (const [index, one] of issues.entries()) expect(formatted[index]?.path).toBe(one.path.map(String).join('.'))
        const expected = formatted.map((one) => (one.path === '' ? one.message : `${one.path}: ${one.message}`)).join('; ')
        expect(issuesText(formatted)).toBe(expected)
        const named = formatted.map((one) => `${one.path === '' ? 'arguments' : one.path}: ${one.message}`).join('; ')
        expect(issuesText(formatted, 'arguments')).toBe(named)
      }),
      { seed: 14014, numRuns: 200 },
    )
  })
})
