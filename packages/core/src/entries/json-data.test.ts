import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidEntryError } from '../errors/threadlens-error'
import { awkwardJsonArbitrary, hostileLeaves, hostileValueArbitrary, nested, nestedArrays } from '../testing/hostile-values'
import { parseEntryInput } from './entry-schema'
import { entryLimits, readJsonData } from './json-data'
import { createThread } from './thread'

function problemOf(value: unknown): { path: string; rule: string } {
  const result = readJsonData(value)
  if (result.ok) throw new Error('expected a problem')
  return { path: result.problem.path.join('.'), rule: result.problem.rule }
}

function appendError(input: unknown): InvalidEntryError {
  try {
    createThread().append(input as never)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEntryError)
    return error as InvalidEntryError
  }
  throw new Error('append accepted it')
}

describe('readJsonData', () => {
  it.each([
    [
      (() => {
        const a: Record<string, unknown> = { x: 1 }
        a['self'] = a
        return { arguments: a }
      })(),
      'arguments.self',
      /circular/,
    ],
    [{ f: () => 1 }, 'f', /function/],
    [{ s: Symbol('s') }, 's', /symbol/],
    [{ n: 1n }, 'n', /BigInt/],
    [{ list: [1, undefined] }, 'list.1', /undefined.*null/],
    // eslint-disable-next-line no-sparse-arrays
    [{ list: [1, , 2] }, 'list.1', /empty array slot/],
    [{ when: new Date(0) }, 'when', /Date.*toISOString/],
    [{ map: new Map() }, 'map', /Map.*fromEntries/],
    [{ set: new Set() }, 'set', /Set/],
    [{ bytes: new Uint8Array(2) }, 'bytes', /binary/],
    [{ n: Number.NaN }, 'n', /finite/],
    [{ n: -Infinity }, 'n', /finite/],
    [
      {
        at: new (class Point {
          x = 1
        })(),
      },
      'at',
      /Point instance/,
    ],
    [JSON.parse('{"a":{"__proto__":1}}'), 'a.__proto__', /not allowed/],
    [{ [Symbol('k')]: 1 }, '', /symbol key/],
    [
      {
        get g() {
          return 1
        },
      },
      'g',
      /getter/,
    ],
    [nested(100), 'a.'.repeat(entryLimits.maxDepth).slice(0, -1), /deeper than the 64-level limit/],
  ])('refuses %# naming the path and the rule', (value, path, rule) => {
    const problem = problemOf(value)
    expect(problem.path).toBe(path)
    expect(problem.rule).toMatch(rule)
  })

  it('gives a problem, not a RangeError or TypeError, for 10,000-deep nesting, throwing proxies and getters', () => {
    for (const make of hostileLeaves) {
      const result = readJsonData({ wrapped: make() })
      expect(result.ok).toBe(false)
    }
    expect(problemOf(nested(10_000)).rule).toMatch(/deeper/)
    expect(problemOf(nestedArrays(10_000)).rule).toMatch(/deeper/)
  })

  it('accepts a shared (not circular) object and copies it at each place', () => {
    const shared = { n: 1 }
    const result = readJsonData({ a: shared, b: [shared, shared] })
    expect(result).toEqual({ ok: true, value: { a: { n: 1 }, b: [{ n: 1 }, { n: 1 }] } })
  })

  it('normalises -0 to 0 and leaves out object properties that are undefined', () => {
    const result = readJsonData({ zero: -0, gone: undefined, list: [-0] })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(Object.is((result.value as { zero: number }).zero, 0)).toBe(true)
    expect(result.value).toStrictEqual({ zero: 0, list: [0] })
  })

  it('refuses a huge sparse array before looping over it', () => {
    const sparse: unknown[] = []
    sparse.length = 1_000_000_000
    expect(problemOf({ sparse }).rule).toMatch(/byte limit/)
  })

  it('accepts every JSON value (unicode, emoji, lone surrogates) and returns an equal copy that survives JSON (seed 1201)', () => {
    fc.assert(
      fc.property(awkwardJsonArbitrary, (value) => {
        const result = readJsonData(value)
        expect(result.ok ? undefined : result.problem).toBeUndefined()
        if (!result.ok) return
        expect(result.value).toEqual(JSON.parse(JSON.stringify(value)))
        expect(JSON.parse(JSON.stringify(result.value))).toStrictEqual(result.value)
      }),
      { numRuns: 500, seed: 1201 },
    )
  })

  it('refuses a hostile value anywhere inside, naming its path (seed 1202)', () => {
    fc.assert(
      fc.property(hostileValueArbitrary, ({ value, path }) => {
        const result = readJsonData(value)
        expect(result.ok).toBe(false)
        if (result.ok) return
        // The problem is at or below the hostile leaf's place.
        expect(result.problem.path.slice(0, path.length)).toEqual(path)
      }),
      { numRuns: 500, seed: 1202 },
    )
  })
})

describe('entries are plain JSON data', () => {
  it('refuses a circular tool argument on Thread.append, naming payload.arguments.self', () => {
    const argumentsValue: Record<string, unknown> = { x: 1 }
    argumentsValue['self'] = argumentsValue
    const error = appendError({ kind: 'tool_call', payload: { name: 't', arguments: argumentsValue }, refs: { toolCallId: 'c' } })
    expect(error.field).toBe('payload.arguments.self')
    expect(error.message).toMatch(/circular/)
  })

  it('refuses tool arguments nested 10,000 deep with InvalidEntryError, not RangeError', () => {
    const error = appendError({ kind: 'tool_call', payload: { name: 't', arguments: nested(10_000) }, refs: { toolCallId: 'c' } })
    expect(error.message).toMatch(/deeper than the 64-level limit/)
  })

  it('accepts an entry at the depth limit and refuses one level more', () => {
    // The entry is level 1 and payload level 2: arguments nested(62) reaches level 64.
    const atLimit = { kind: 'tool_call', payload: { name: 't', arguments: nested(entryLimits.maxDepth - 2) }, refs: { toolCallId: 'c' } }
    expect(() => parseEntryInput(atLimit)).not.toThrow()
    const over = { kind: 'tool_call', payload: { name: 't', arguments: nested(entryLimits.maxDepth - 1) }, refs: { toolCallId: 'c' } }
    expect(() => parseEntryInput(over)).toThrow(InvalidEntryError)
  })

  it('accepts an entry at the size limit and refuses one byte more', () => {
    const envelope = JSON.stringify({ kind: 'message', payload: { role: 'user', content: '' } }).length
    const room = entryLimits.maxEntryBytes - entryLimits.reservedBytes - envelope
    expect(() => parseEntryInput({ kind: 'message', payload: { role: 'user', content: 'x'.repeat(room) } })).not.toThrow()
    const error = (() => {
      try {
        parseEntryInput({ kind: 'message', payload: { role: 'user', content: 'x'.repeat(room + 1) } })
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(InvalidEntryError)
    expect((error as InvalidEntryError).message).toMatch(/byte limit/)
  })

  it('refuses a 10 MB message before anything is appended', () => {
    const thread = createThread()
    expect(() => thread.append({ kind: 'message', payload: { role: 'user', content: 'x'.repeat(10_000_000) } })).toThrow(InvalidEntryError)
    expect(thread.entries).toHaveLength(0)
  })

  it("does not freeze or keep the caller's objects", () => {
    const argumentsValue = { city: 'Oslo' }
    const entry = createThread().append({ kind: 'tool_call', payload: { name: 't', arguments: argumentsValue }, refs: { toolCallId: 'c' } })
    expect(Object.isFrozen(argumentsValue)).toBe(false)
    expect(entry.kind === 'tool_call' && entry.payload.arguments).not.toBe(argumentsValue)
  })
})
