import { readFileSync, writeFileSync } from 'node:fs'

// Accept/reject fixtures: inputs with the outcome a check gave them, kept as JSON files under
// testing/fixtures/ and compared with what the code gives today (see `checkFixture`).
//
// JSON cannot hold every value a damaged input or an output may contain. These are written as an
// object whose only key is "$": {"$":"undefined"} (a key present with the value undefined, or an
// undefined array item), {"$":"NaN"}, {"$":"-0"}, {"$":"Infinity"}, {"$":"-Infinity"}. No input or
// output of the fixtures has an own "$" key, so the marker is never ambiguous.

/** What a check gave an input: accepted with an output (`'unchanged'`: the output is the input), or rejected with an error. */
export type FixtureOutcome = { readonly accept: unknown } | { readonly reject: unknown }

export type FixtureCase<TInput = unknown> = { readonly name: string; readonly input: TInput } & FixtureOutcome

const specials: readonly [string, unknown][] = [
  ['undefined', undefined],
  ['NaN', Number.NaN],
  ['-0', -0],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]

/** `value` as plain JSON data, with the values JSON cannot hold written as {"$": name}. */
export function encodeValue(value: unknown): unknown {
  const special = specials.find(([, held]) => Object.is(held, value))
  if (special !== undefined) return { $: special[0] }
  if (Array.isArray(value)) return value.map(encodeValue)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, encodeValue(item)]))
  }
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint')
    throw new TypeError(`a fixture cannot hold a ${typeof value}`)
  return value
}

/** The inverse of `encodeValue`. */
export function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue)
  if (typeof value !== 'object' || value === null) return value
  const keys = Object.keys(value)
  if (keys.length === 1 && keys[0] === '$') {
    const special = specials.find(([name]) => name === (value as { $: unknown }).$)
    if (special === undefined) throw new TypeError(`unknown fixture marker ${JSON.stringify(value)}`)
    return special[1]
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeValue(item)]))
}

/** The outcome as stored: an output equal to the input (same JSON text) is written `'unchanged'`. */
export function storedOutcome(input: unknown, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): FixtureOutcome {
  if (!outcome.ok) return { reject: encodeValue(outcome.error) }
  const output = encodeValue(outcome.value)
  return { accept: JSON.stringify(output) === JSON.stringify(encodeValue(input)) ? 'unchanged' : output }
}

/** A fixture file: one case per line, so a diff shows which cases changed. */
export function fixtureText(cases: readonly FixtureCase[]): string {
  return `[\n${cases.map((fixture) => `  ${JSON.stringify(fixture)}`).join(',\n')}\n]\n`
}

export function readFixture<TInput = unknown>(url: URL): FixtureCase<TInput>[] {
  return JSON.parse(readFileSync(url, 'utf8')) as FixtureCase<TInput>[]
}

/**
 * `UPDATE_FIXTURES=1` rewrites the fixture files from what the code gives today instead of checking
 * them: for a deliberate rule change, reviewed in the diff of the JSON files. Refused under CI.
 */
export function updatingFixtures(): boolean {
  if (process.env['UPDATE_FIXTURES'] !== '1') return false
  if (process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false')
    throw new Error('UPDATE_FIXTURES=1 is for a deliberate local rule change, never for CI')
  return true
}

/**
 * Runs every case of a fixture file through `run` and checks the outcome is the recorded one (same
 * JSON text: same keys in the same order), failing with the case's name, input and both outcomes.
 * With `UPDATE_FIXTURES=1`, writes today's outcomes to the file instead.
 */
export function checkFixture<TInput>(
  url: URL,
  run: (input: TInput) => { ok: true; value: unknown } | { ok: false; error: unknown },
): { readonly cases: number; readonly mismatches: readonly string[] } {
  const cases = readFixture<unknown>(url)
  const outcomes = cases.map((fixture) => storedOutcome(decodeValue(fixture.input), run(decodeValue(fixture.input) as TInput)))
  if (updatingFixtures()) {
    writeFileSync(
      url,
      fixtureText(cases.map((fixture, index) => ({ name: fixture.name, input: fixture.input, ...(outcomes[index] as FixtureOutcome) }))),
    )
    return { cases: cases.length, mismatches: [] }
  }
  const mismatches: string[] = []
  cases.forEach((fixture, index) => {
    const recorded = JSON.stringify('accept' in fixture ? { accept: fixture.accept } : { reject: fixture.reject })
    const now = JSON.stringify(outcomes[index])
    if (recorded !== now)
      mismatches.push(
        `case "${fixture.name}" of ${url.pathname.split('/').at(-1)}\n  input:    ${JSON.stringify(fixture.input)}\n  recorded: ${recorded}\n  now:      ${now}`,
      )
  })
  return { cases: cases.length, mismatches }
}
