import fc from 'fast-check'

/** Nests `leaf` `depth` levels deep under `key`, without recursion. */
export function nested(depth: number, leaf: unknown = 1, key = 'a'): unknown {
  let value: unknown = leaf
  for (let level = 0; level < depth; level++) value = { [key]: value }
  return value
}

/** Nests `leaf` `depth` arrays deep, without recursion. */
export function nestedArrays(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf
  for (let level = 0; level < depth; level++) value = [value]
  return value
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** Values that are not plain JSON data, each built fresh (cycles, getters, proxies, class instances, …). */
export const hostileLeaves: readonly (() => unknown)[] = [
  () => {
    const value: Record<string, unknown> = { x: 1 }
    value['self'] = value
    return value
  },
  () => {
    const list: unknown[] = [1]
    list.push({ back: list })
    return list
  },
  () => () => 1,
  () => Symbol('s'),
  () => 10n,
  () => [1, undefined, 3],
  // eslint-disable-next-line no-sparse-arrays
  () => [1, , 3],
  () => new Date(0),
  () => new Map([['a', 1]]),
  () => new Set([1]),
  () => new Uint8Array([1, 2]),
  () => new Point(1, 2),
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => ({ [Symbol('key')]: 1 }),
  () => ({
    get boom(): never {
      throw new Error('getter ran')
    },
  }),
  () =>
    new Proxy(
      {},
      {
        ownKeys() {
          throw new TypeError('proxy trap')
        },
      },
    ),
  () => JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  () => ({ constructor: { prototype: 1 } }),
  () => nested(10_000),
  () => nestedArrays(10_000),
  () => Promise.resolve(1),
  () => new Error('e'),
  () => /x/,
]

const refusedKey = /"(__proto__|constructor|prototype)":/

/** Plain JSON values including the awkward ones: unicode, emoji, lone surrogates, -0 (the keys refused everywhere left out). */
export const awkwardJsonArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).filter((value) => !refusedKey.test(JSON.stringify(value))) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', 'a\udc00b', '🙂🚀', '👨‍👩‍👧‍👦', '東京', '\u0000\u2028', -0, 0.1, 1e308) },
)

/**
 * A JSON value with one hostile leaf placed somewhere inside it (at a random path), so every rule
 * is tried at depth too.
 */
export const hostileValueArbitrary: fc.Arbitrary<{ value: unknown; path: string[] }> = fc
  .tuple(
    fc.integer({ min: 0, max: hostileLeaves.length - 1 }),
    fc.array(
      fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !['__proto__', 'constructor', 'prototype', 'ok'].includes(key)),
      { maxLength: 5 },
    ),
  )
  .map(([which, path]) => {
    let value = (hostileLeaves[which] as () => unknown)()
    for (let position = path.length - 1; position >= 0; position--) value = { [path[position] as string]: value, ok: 'yes' }
    return { value, path }
  })
