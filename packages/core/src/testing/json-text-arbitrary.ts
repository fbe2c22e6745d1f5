import fc from 'fast-check'

// JSON object texts written the many ways providers and recorders write them: spacing and
// newlines, numbers as `1.0`, `1e2`, `-0`, `2E-3` or beyond 2^53, strings with `\u` escapes and
// `\/`, a key given twice. `JSON.parse` then `JSON.stringify` changes most of them.

const space = fc.constantFrom('', '', '', ' ', '  ', '\n', '\n  ', '\t', '\r\n')

const numberText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.constantFrom(
    '1.0',
    '1e2',
    '1E+2',
    '2e-3',
    '-0',
    '-0.0',
    '0.10',
    '12345678901234567890',
    '-98765432109876543210',
    '9007199254740993',
    '1.5',
    '100',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
)

/** One character of a JSON string, escaped or not. */
const stringCharacter = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    ' ',
    'é',
    '🙂',
    '/',
    '\\/',
    '\\"',
    '\\\\',
    '\\n',
    '\\t',
    '\\u00e9',
    '\\u0041',
    '\\ud83d\\ude42',
    '\\u2028',
    '\\b',
    '\\f',
    '\\r',
  ),
  fc.string({ maxLength: 1, unit: 'grapheme' }).filter((character) => character !== '"' && character !== '\\' && character >= ' '),
)
const stringText = fc.array(stringCharacter, { maxLength: 6 }).map((characters) => `"${characters.join('')}"`)
const keyText = fc.oneof(fc.constantFrom('"a"', '"b"', '"id"', '"\\u0061"', '"k y"', '"1"', '"é"'), stringText)

/** Members or items separated by commas, each gap its own spacing. */
function joined(items: readonly string[], gaps: readonly string[]): string {
  return items.map((item, position) => `${gaps[position * 2] ?? ''}${item}${gaps[position * 2 + 1] ?? ''}`).join(',')
}

const gaps = fc.array(space, { minLength: 12, maxLength: 12 })

const texts = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText,
    stringText,
    fc.constantFrom('true', 'false', 'null'),
    tie('object'),
    tie('array'),
  ),
  object: fc.tuple(fc.array(fc.tuple(keyText, space, space, tie('value')), { maxLength: 4 }), gaps).map(
    ([members, around]) =>
      `{${joined(
        members.map(([key, before, after, member]) => `${key}${before}:${after}${member}`),
        around,
      )}${members.length === 0 ? (around[0] ?? '') : ''}}`,
  ),
  array: fc.tuple(fc.array(tie('value'), { maxLength: 3 }), gaps).map(([items, around]) => `[${joined(items, around)}]`),
}))

/**
 * JSON texts of an object (what a tool call's arguments are), spaced and spelled every way JSON
 * allows; some are outside `JSON.stringify`'s output, some repeat a key.
 */
export const jsonObjectTextArbitrary: fc.Arbitrary<string> = fc
  .tuple(space, texts.object, space)
  .map(([before, object, after]) => `${before}${object}${after}`)
