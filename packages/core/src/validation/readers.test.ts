import { describe, expect, it } from 'vitest'
import { callAttemptReader } from '../calls/call-attempt-schema'
import { InvalidPolicyError } from '../errors/threadlens-error'
import { definePolicy } from '../policy/policy'
import { nested } from '../testing/hostile-values'
import { sampleAttempt } from '../testing/samples'
import { read } from './readers'

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
    const options = Object.defineProperty({}, 'maxInputTokens', { enumerable: true, get: () => { throw new Error('boom') } })
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
