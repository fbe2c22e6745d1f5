import fc from 'fast-check'

// Random damage to valid values, for the readers' property tests (and the inputs their fixtures were
// made from): each mutation picks a place inside the value (any object or array, at any depth) and
// breaks it the way real bad data is broken.

/** Values that break some rule somewhere: wrong types, bounds, lengths, patterns, ids. */
const replacements: readonly unknown[] = [
  'x',
  '',
  'has space',
  'a'.repeat(65),
  'b'.repeat(257),
  'sha256-' + 'a'.repeat(64),
  'https://example.com/a.png',
  'ftp://x',
  'data:image/png;base64,AAAA',
  'user',
  'assistant',
  'system',
  'pin',
  'reset',
  'lines',
  'map',
  'list',
  'open',
  'done',
  'o200k_base',
  'explicit',
  0,
  -0,
  1,
  -1,
  1.5,
  3,
  0.5,
  1000,
  1001,
  100_001,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  undefined,
  [],
  ['x'],
  [1, 2],
  {},
  { a: 1 },
  { type: 'text', text: 'hi' },
  { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
]

type Container = Record<string, unknown> | unknown[]

function containers(value: unknown): { parent: Container; key: string | number }[] {
  const found: { parent: Container; key: string | number }[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0 && found.length < 500) {
    const current = stack.pop()
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        found.push({ parent: current, key: index })
        stack.push(item)
      })
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        found.push({ parent: current as Record<string, unknown>, key })
        stack.push(item)
      }
    }
  }
  return found
}

export interface Mutation {
  readonly place: number
  readonly how: 'replace' | 'delete' | 'extra-key' | 'replace-root-key'
  readonly replacement: unknown
  readonly key: string
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  place: fc.nat(),
  how: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'extra-key', 'replace-root-key'),
  replacement: fc.constantFrom(...replacements),
  key: fc.constantFrom('extra', 'kind', 'payload', 'refs', 'meta', 'id', 'seq', 'role', 'content', 'parts', 'name', 'tokens', 'call', 'cache'),
})

/** A deep copy of `value` with the mutations applied (the original is untouched). */
export function mutate<T>(value: T, mutations: readonly Mutation[]): unknown {
  const copy = structuredClone(value) as unknown
  for (const mutation of mutations) {
    const places = containers(copy)
    if (mutation.how === 'replace-root-key' && typeof copy === 'object' && copy !== null) {
      ;(copy as Record<string, unknown>)[mutation.key] = structuredClone(mutation.replacement)
      continue
    }
    const place = places[mutation.place % Math.max(1, places.length)]
    if (place === undefined) continue
    const { parent, key } = place
    if (mutation.how === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key as string]
    } else if (mutation.how === 'extra-key') {
      const target = parent[key as never] as unknown
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>)[mutation.key] = 1
      else (parent as Record<string | number, unknown>)[key] = structuredClone(mutation.replacement)
    } else {
      ;(parent as Record<string | number, unknown>)[key] = structuredClone(mutation.replacement)
    }
  }
  return copy
}

/** Up to three mutations; an empty list leaves the value valid. */
export const mutationsArbitrary: fc.Arbitrary<Mutation[]> = fc.array(mutationArbitrary, { maxLength: 3 })
