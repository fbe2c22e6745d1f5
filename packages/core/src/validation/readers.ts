import { copyJsonData } from '../entries/json-data'
import type { JsonObject, JsonValue } from '../entries/entry'
import { Invalid, pathOf, type At } from './invalid'

export { Invalid, pathOf, type At } from './invalid'

// Small typed readers that check a value and return it (a clean copy for objects and arrays), or
// report the FIRST broken rule as `{ path, rule }`. Core's own data (entries, policies, memory,
// call records) and the store's options, rows and export lines are checked with them (the store
// imports them from /internal), so neither needs a schema library at run time. The rules
// keep the wording of zod's English messages, which users of earlier versions already saw.
// The reader factories are marked `@__NO_SIDE_EFFECTS__`: a module-level reader built with them
// (the content parts', the policy's) is then dropped by an app's bundler where nothing reads with
// it, e.g. an app that imports `project` without `createThread` or `definePolicy` (−1.2 KB gzip).

/** The first rule a value broke, at a path inside it (`[]` is the value itself). */
export interface Problem {
  readonly path: readonly (string | number)[]
  readonly rule: string
}

/** Checks `value` (at `at` inside the value being read); returns the checked copy or throws `Invalid`. */
export type Reader<T> = (value: unknown, at: At | null) => T

/** A reader that may also be left out of an object (`exact`: the key absent; `loose`: absent or `undefined`). */
export type OptionalReader<T> = Reader<T> & { readonly optional: 'exact' | 'loose' }

/**
 * A broken rule after which the value's type is still right (a length, a bound, a pattern, an
 * unknown key, a refinement): `flag` it, and the reader goes on when a union is trying the value
 * against each of its options (see `union`). A wrong type, a wrong option or a broken union is a
 * `fail`: nothing more can be said about the value.
 */
export function fail(at: At | null, rule: string): never {
  throw new Invalid(at, rule)
}

// Set while `union` tries an option: the flagged problems, in order. `null`: the first problem throws.
let flagged: Invalid[] | null = null

export function flag(at: At | null, rule: string): void {
  if (flagged === null) throw new Invalid(at, rule)
  flagged.push(new Invalid(at, rule))
}

type Attempt<T> = { readonly value: T; readonly problems: readonly Invalid[] } | { readonly failed: Invalid }

function attempt<T>(reader: Reader<T>, value: unknown, at: At | null): Attempt<T> {
  const outer = flagged
  const problems: Invalid[] = []
  flagged = problems
  try {
    return { value: reader(value, at), problems }
  } catch (error) {
    if (error instanceof Invalid) return { failed: error }
    throw error
  } finally {
    flagged = outer
  }
}

export type ReadResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem }

/** Runs a reader on a value: its checked copy, or the first problem. */
export function read<T>(reader: Reader<T>, value: unknown): ReadResult<T> {
  const outer = flagged
  flagged = null
  try {
    return { ok: true, value: reader(value, null) }
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, problem: { path: pathOf(error.at), rule: error.rule } }
    // A getter or Proxy of the value threw: that is a problem of the value, not a crash of the reader.
    return { ok: false, problem: { path: [], rule: `could not be read (${error instanceof Error ? error.message : String(error)})` } }
  } finally {
    flagged = outer
  }
}

/** How a value is named in "expected …, received …" (zod's names, so messages read as before). */
export function receivedName(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : String(value)
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') {
    const constructor = Object.getPrototypeOf(value) === Object.prototype ? undefined : (value as { constructor?: { name?: string } }).constructor
    if (constructor) return constructor.name ?? 'object'
  }
  return typeof value
}

export function wrongType(at: At | null, expected: string, value: unknown): never {
  return fail(at, `Invalid input: expected ${expected}, received ${receivedName(value)}`)
}

export interface StringRules {
  readonly min?: number
  readonly max?: number
  readonly pattern?: RegExp
  /** The rule reported when `pattern` does not match. Default: `Invalid string: must match pattern <pattern>`. */
  readonly patternRule?: string
}

/* @__NO_SIDE_EFFECTS__ */
export function string(rules: StringRules = {}): Reader<string> {
  const { min, max, pattern } = rules
  return (value, at) => {
    if (typeof value !== 'string') return wrongType(at, 'string', value)
    if (min !== undefined && value.length < min) flag(at, `Too small: expected string to have >=${min} characters`)
    if (max !== undefined && value.length > max) flag(at, `Too big: expected string to have <=${max} characters`)
    if (pattern !== undefined && !pattern.test(value)) flag(at, rules.patternRule ?? `Invalid string: must match pattern ${pattern}`)
    return value
  }
}

/** Bounds of a number: `min`/`max` inclusive, `above`/`below` exclusive. */
export interface NumberBounds {
  readonly min?: number
  readonly above?: number
  readonly max?: number
  readonly below?: number
}

function checkBounds(value: number, bounds: NumberBounds, at: At | null): number {
  if (bounds.min !== undefined && value < bounds.min) flag(at, `Too small: expected number to be >=${bounds.min}`)
  if (bounds.above !== undefined && value <= bounds.above) flag(at, `Too small: expected number to be >${bounds.above}`)
  if (bounds.max !== undefined && value > bounds.max) flag(at, `Too big: expected number to be <=${bounds.max}`)
  if (bounds.below !== undefined && value >= bounds.below) flag(at, `Too big: expected number to be <${bounds.below}`)
  return value
}

/** A finite number within `bounds`. */
/* @__NO_SIDE_EFFECTS__ */
export function number(bounds: NumberBounds = {}): Reader<number> {
  return (value, at) => (typeof value === 'number' && Number.isFinite(value) ? checkBounds(value, bounds, at) : wrongType(at, 'number', value))
}

/** A safe integer within `bounds`. */
/* @__NO_SIDE_EFFECTS__ */
export function int(bounds: NumberBounds = {}): Reader<number> {
  return (value, at) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType(at, 'number', value)
    if (!Number.isInteger(value)) return wrongType(at, 'int', value)
    if (value > Number.MAX_SAFE_INTEGER) flag(at, `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`)
    if (value < Number.MIN_SAFE_INTEGER) flag(at, `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`)
    return checkBounds(value, bounds, at)
  }
}

export const boolean: Reader<boolean> = (value, at) => (typeof value === 'boolean' ? value : wrongType(at, 'boolean', value))

/** One of a few strings (one string alone is a literal); `rule` replaces the default `Invalid option: …`. */
/* @__NO_SIDE_EFFECTS__ */
export function oneOf<const T extends string | boolean>(values: readonly T[], rule?: string): Reader<T> {
  const shown = values.map((value) => (typeof value === 'string' ? `"${value}"` : String(value)))
  const broken = rule ?? (values.length === 1 ? `Invalid input: expected ${shown[0]}` : `Invalid option: expected one of ${shown.join('|')}`)
  return (value, at) => (values.includes(value as T) ? (value as T) : fail(at, broken))
}

/** `null`, or what `reader` accepts. */
/* @__NO_SIDE_EFFECTS__ */
export function nullable<T>(reader: Reader<T>): Reader<T | null> {
  return (value, at) => (value === null ? null : reader(value, at))
}

/** A value `test` accepts, as it is (not copied): a function, a host object. */
/* @__NO_SIDE_EFFECTS__ */
export function custom<T>(test: (value: unknown) => boolean, rule = 'Invalid input'): Reader<T> {
  return (value, at) => (test(value) ? (value as T) : fail(at, rule))
}

/** Optional in an object: `exact` allows the key to be absent (not `undefined`), `loose` allows both. */
/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(reader: Reader<T>, mode: 'exact' | 'loose' = 'exact'): OptionalReader<T> {
  return Object.assign((value: unknown, at: At | null) => reader(value, at), { optional: mode })
}

/** `undefined` becomes a fresh `fallback()` (not checked); anything else is read by `reader`. */
/* @__NO_SIDE_EFFECTS__ */
export function withDefault<T>(reader: Reader<T>, fallback: () => T): Reader<T> {
  return (value, at) => (value === undefined ? fallback() : reader(value, at))
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T>(item: Reader<T>, max?: number): Reader<T[]> {
  return (value, at) => {
    if (!Array.isArray(value)) return wrongType(at, 'array', value)
    const copy = new Array<T>(value.length)
    for (let index = 0; index < value.length; index++) copy[index] = item(value[index], { parent: at, key: index })
    if (max !== undefined && copy.length > max) flag(at, `Too big: expected array to have <=${max} items`)
    return copy
  }
}

/** An object that is not an array (nor null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A map from checked keys to checked values. A broken key rule reads `Invalid key in record`. */
/* @__NO_SIDE_EFFECTS__ */
export function record<T>(key: Reader<string>, item: Reader<T>): Reader<Record<string, T>> {
  return (value, at) => {
    if (!isRecord(value)) return wrongType(at, 'record', value)
    const copy: Record<string, T> = {}
    for (const name of Object.keys(value)) {
      const here = { parent: at, key: name }
      if (read(key, name).ok !== true) fail(here, 'Invalid key in record')
      copy[name] = item(value[name], here)
    }
    return copy
  }
}

/** The reader of each key of `T`; a key that may be absent needs an `optional` reader. */
export type Shape<T> = { readonly [K in keyof T]-?: undefined extends T[K] ? OptionalReader<Exclude<T[K], undefined>> : Reader<T[K]> }

/**
 * A strict object: every key of `shape` in order, then no other keys, then `refine` (which may
 * `flag`) on the checked copy. The copy has the keys in the order of `shape`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function object<T>(shape: Shape<T>, refine?: (checked: T, at: At | null) => void): Reader<T> {
  return objectOf(shape, true, refine)
}

/** An object of which only the keys of `shape` are read (and copied); other keys are left out. */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<T>(shape: Shape<T>): Reader<T> {
  return objectOf(shape, false)
}

/* @__NO_SIDE_EFFECTS__ */
function objectOf<T>(shape: Shape<T>, strict: boolean, refine?: (checked: T, at: At | null) => void): Reader<T> {
  const keys = Object.keys(shape) as (keyof T & string)[]
  return (value, at) => {
    if (!isRecord(value)) return wrongType(at, 'object', value)
    const copy: Record<string, unknown> = {}
    for (const key of keys) {
      const reader = shape[key] as Reader<unknown> & { optional?: 'exact' | 'loose' }
      const given = Object.hasOwn(value, key) ? value[key] : undefined
      if (given === undefined && (reader.optional === 'loose' || (reader.optional === 'exact' && !Object.hasOwn(value, key)))) continue
      const checked = reader(given, { parent: at, key })
      if (checked !== undefined) copy[key] = checked
    }
    let unknown: string[] | undefined
    if (strict) for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) (unknown ??= []).push(key)
    if (unknown !== undefined) flag(at, `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((key) => `"${key}"`).join(', ')}`)
    refine?.(copy as T, at)
    return copy as T
  }
}

/**
 * The first of `options` that accepts the value. When none does: if exactly one failed only on
 * flagged rules (its type was right), its problems; otherwise `Invalid input`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function union<T>(options: readonly Reader<T>[]): Reader<T> {
  return (value, at) => {
    let closest: { readonly value: T; readonly problems: readonly Invalid[] } | undefined
    let close = 0
    for (const option of options) {
      const tried = attempt(option, value, at)
      if ('failed' in tried) continue
      if (tried.problems.length === 0) return tried.value
      closest = tried
      close++
    }
    if (closest === undefined || close > 1) return fail(at, 'Invalid input')
    for (const problem of closest.problems) flag(problem.at, problem.rule)
    return closest.value
  }
}

/** An object whose `key` (a string) picks its reader. */
/* @__NO_SIDE_EFFECTS__ */
export function byKey<T>(key: string, options: { readonly [value: string]: Reader<T> }): Reader<T> {
  const rule = `Invalid discriminator value. Expected ${Object.keys(options)
    .map((option) => `'${option}'`)
    .join(' | ')}`
  return (value, at) => {
    if (!isRecord(value)) return wrongType(at, 'object', value)
    const tag = value[key]
    if (typeof tag !== 'string' || !Object.hasOwn(options, tag)) return fail({ parent: at, key }, rule)
    return (options[tag] as Reader<T>)(value, at)
  }
}

/** Plain JSON data (see `readJsonData` for the rules): a clean copy, walked without recursion. */
export const jsonValue: Reader<JsonValue> = (value, at) => copyJsonData(value, at)

/** A plain JSON object (not an array); the same rules as `jsonValue`. */
export const jsonObject: Reader<JsonObject> = (value, at) => {
  if (!isRecord(value)) return fail(at, `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`)
  return jsonValue(value, at) as JsonObject
}
