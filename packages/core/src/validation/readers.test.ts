import { describe, expect, it } from 'vitest'
import { callAttemptReader } from '../calls/call-attempt-schema'
import { InvalidPolicyError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { nested } from '../testing/hostile-values'
import { sampleAttempt } from '../testing/samples'
import { problemIssue } from './issues'
import { custom, nullable, object, oneOf, optional, read, string } from './readers'

// What the accept/reject fixtures (readers.fixtures.test.ts) cannot hold: values JSON cannot write.

describe('readers on hostile values', () => {
  it('refuse a cycle or hostile nesting inside JSON data with a problem, never a RangeError', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    const looping = read(callAttemptReader, { ...sampleAttempt, record: { ...sampleAttempt.record, policy: cyclic } })
    expect(looping).toEqual({ ok: false, problem: { path: ['record', 'policy', 'self'], rule: 'circular reference: the value contains itself' } })
    const deep = read(callAttemptReader, { ...sampleAttempt, record: { ...sampleAttempt.record, policy: nested(100_000) } })
    expect(deep.ok).toBe(false)
    if (!deep.ok) expect(deep.problem.rule).toContain('nested deeper than the 64-level limit')
  })

  it('turn a throwing getter into a typed error', () => {
    const options = Object.defineProperty({}, 'maxInputTokens', {
      enumerable: true,
      get: () => {
        throw new Error('boom')
      },
    })
    expect(() => definePolicy(options)).toThrow(InvalidPolicyError)
    expect(() => definePolicy(options)).toThrow(/could not be read \(boom\)/)
  })

  it('leave a cyclic object outside JSON data alone: only the keys the shape names are read', () => {
    const cache: Record<string, unknown> = { ttl: '1h' }
    const options = { cache, maxInputTokens: 100 }
    cache['loop'] = options
    expect(() => definePolicy(options)).toThrow('Invalid policy: cache: Unrecognized key: "loop"')
  })
})

describe('readers the store composes', () => {
  it('oneOf: a rule of its own replaces the default wording', () => {
    const format = oneOf(['threadlens.thread'], 'not a threadlens export')
    expect(read(format, 'threadlens.thread')).toEqual({ ok: true, value: 'threadlens.thread' })
    expect(read(format, 'other')).toEqual({ ok: false, problem: { path: [], rule: 'not a threadlens export' } })
    expect(read(oneOf(['a']), 'b')).toEqual({ ok: false, problem: { path: [], rule: 'Invalid input: expected "a"' } })
  })

  it("nullable: null, or the inner reader's value and problem", () => {
    const name = object({ model: nullable(string({ min: 1 })) })
    expect(read(name, { model: null })).toEqual({ ok: true, value: { model: null } })
    expect(read(name, { model: 'm' })).toEqual({ ok: true, value: { model: 'm' } })
    expect(read(name, { model: '' })).toEqual({ ok: false, problem: { path: ['model'], rule: 'Too small: expected string to have >=1 characters' } })
    expect(read(name, {})).toEqual({ ok: false, problem: { path: ['model'], rule: 'Invalid input: expected string, received undefined' } })
  })

  it('custom: the value itself when the test passes (a function is not copied), the rule otherwise', () => {
    const now = (): number => 1
    const options = object<{ now?: () => number }>({
      now: optional(custom<() => number>((value) => typeof value === 'function', 'now must be a function')),
    })
    const accepted = read(options, { now })
    expect(accepted.ok && accepted.value.now).toBe(now)
    expect(read(options, {})).toEqual({ ok: true, value: {} })
    const refused = read(options, { now: 3 })
    expect(refused).toEqual({ ok: false, problem: { path: ['now'], rule: 'now must be a function' } })
    if (!refused.ok) expect(problemIssue(refused.problem)).toEqual({ path: 'now', message: 'now must be a function' })
    expect(
      read(
        custom(() => false),
        1,
      ),
    ).toEqual({ ok: false, problem: { path: [], rule: 'Invalid input' } })
  })
})
