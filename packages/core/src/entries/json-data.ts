import type { JsonValue } from './entry'
import { Invalid, pathOf, type At } from '../validation/invalid'

/**
 * The limits of what an entry may hold: one set of numbers for `Thread.append`, the store's
 * append, import and the agent. Export writes each entry on one line, and the import line limit
 * is derived from `maxEntryBytes`, so whatever append accepts, import accepts.
 */
export const entryLimits = {
  /** Deepest nesting of any JSON value inside an entry (tool arguments, a tool result, `meta.app`), counted from that value. */
  maxDepth: 64,
  /**
   * Largest entry, 4 MiB: UTF-8 bytes of its JSON without id, threadId, seq, createdAt and
   * `meta.tokens`, plus `reservedBytes` for those.
   */
  maxEntryBytes: 4 * 1024 * 1024,
  /** Counted for an entry's id, thread id, seq and `createdAt` (each bounded), whether the input has them yet or not. */
  reservedBytes: 1024,
  /** Slack of an export line over `maxEntryBytes`, for `meta.tokens` (left out of the entry's size). */
  tokenCountBytes: 64 * 1024,
} as const

/** One broken rule, at a path inside the checked value (`[]` is the value itself). */
export interface JsonDataProblem {
  readonly path: readonly (string | number)[]
  readonly rule: string
}

export type JsonDataResult = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly problem: JsonDataProblem }

export interface ReadJsonDataOptions {
  /** Default: `entryLimits.maxDepth`. */
  readonly maxDepth?: number
  /** Refuse early once the strings alone exceed this many UTF-8 bytes. Default: `entryLimits.maxEntryBytes`. */
  readonly maxBytes?: number
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

function describeObject(value: object): string | undefined {
  if (value instanceof Date) return 'a Date is not JSON data: store date.toISOString() or date.getTime()'
  if (value instanceof Map) return 'a Map is not JSON data: store Object.fromEntries(map)'
  if (value instanceof Set) return 'a Set is not JSON data: store [...set]'
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return 'binary data is not JSON data: store it as a string (e.g. base64)'
  if (value instanceof RegExp) return 'a RegExp is not JSON data: store regexp.source'
  if (value instanceof Error) return 'an Error is not JSON data: store error.message'
  if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise is not JSON data: await it first'
  return undefined
}

function isPlainPrototype(prototype: unknown): boolean {
  // Object.prototype of this realm, or of another (an iframe's), whose own prototype is null.
  return prototype === null || prototype === Object.prototype || (typeof prototype === 'object' && Object.getPrototypeOf(prototype) === null)
}

interface Visit {
  readonly value: unknown
  readonly trail: At | null
  readonly depth: number
  /** Where the clean copy goes: container and key (the root goes to `root`). */
  readonly into: Record<string, unknown> | unknown[] | null
  readonly key: string | number
}

type Frame = Visit | { readonly leave: object }

/**
 * Checks that `value` is plain JSON data and returns a clean deep copy of it. Iterative (no
 * recursion), so hostile nesting gives a problem, never a stack overflow; and nothing it reads
 * can throw past it (a throwing getter or Proxy is a problem too).
 *
 * Allowed: strings (any UTF-16, lone surrogates included), finite numbers, booleans, null, arrays,
 * and objects whose prototype is `Object.prototype` or `null`. Normalised in the copy: `-0` becomes
 * `0`, and an object property whose value is `undefined` is left out (as `JSON.stringify` does).
 * Refused: cycles, functions, symbols, BigInt, `undefined` in an array or as the value itself,
 * empty array slots, NaN/Infinity, class instances (Date, Map, Set, typed arrays, …), getters,
 * symbol keys, the keys `__proto__`/`constructor`/`prototype`, nesting deeper than `maxDepth`.
 */
export function readJsonData(value: unknown, options: ReadJsonDataOptions = {}): JsonDataResult {
  try {
    return { ok: true, value: copyJsonData(value, null, options.maxDepth, options.maxBytes) }
  } catch (error) {
    return { ok: false, problem: { path: pathOf((error as Invalid).at), rule: (error as Invalid).rule } }
  }
}

/**
 * `readJsonData` for a value found at `at` inside another (the readers' `jsonValue`): the clean
 * copy, or an `Invalid` thrown at the trail of the broken rule, nothing else.
 */
export function copyJsonData(
  value: unknown,
  at: At | null,
  maxDepth: number = entryLimits.maxDepth,
  maxBytes: number = entryLimits.maxEntryBytes,
): JsonValue {
  const root: { value?: unknown } = {}
  const ancestors = new Set<object>()
  const stack: Frame[] = [{ value, trail: at, depth: 0, into: null, key: '' }]
  let bytes = 0
  let current = at
  try {
    while (stack.length > 0) {
      const frame = stack.pop() as Frame
      if ('leave' in frame) {
        ancestors.delete(frame.leave)
        continue
      }
      current = frame.trail
      const copy = copyOne(frame, ancestors, maxDepth, maxBytes, stack)
      // A lower bound of the JSON size, to stop early: UTF-16 length never exceeds UTF-8 bytes, and
      // each other value takes at least a byte. Exact sizes are measured by the caller on the copy.
      bytes += (typeof copy === 'string' ? copy.length + 2 : 1) + (typeof frame.key === 'string' && frame.into !== null ? frame.key.length + 3 : 0)
      if (bytes > maxBytes) throw new Invalid(frame.trail, `larger than the ${maxBytes}-byte limit`)
      if (frame.into === null) root.value = copy
      else if (Array.isArray(frame.into)) frame.into[frame.key as number] = copy
      else frame.into[frame.key as string] = copy
    }
  } catch (error) {
    if (error instanceof Invalid) throw error
    throw new Invalid(current, `could not be read (${error instanceof Error ? error.message : String(error)})`)
  }
  return root.value as JsonValue
}

function copyOne(frame: Visit, ancestors: Set<object>, maxDepth: number, maxBytes: number, stack: Frame[]): unknown {
  const { value, trail, depth } = frame
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw new Invalid(trail, 'must be a finite number (NaN and Infinity are not JSON)')
      return value === 0 ? 0 : value
    case 'undefined':
      throw new Invalid(
        trail,
        frame.into !== null && Array.isArray(frame.into) ? 'undefined is not JSON data (use null in an array)' : 'undefined is not JSON data',
      )
    case 'function':
      throw new Invalid(trail, 'a function is not JSON data')
    case 'symbol':
      throw new Invalid(trail, 'a symbol is not JSON data')
    case 'bigint':
      throw new Invalid(trail, 'a BigInt is not JSON data: store it as a string')
    default:
      break
  }
  if (value === null) return null
  const object = value as object
  if (ancestors.has(object)) throw new Invalid(trail, 'circular reference: the value contains itself')
  if (depth >= maxDepth) throw new Invalid(trail, `nested deeper than the ${maxDepth}-level limit`)
  const isArray = Array.isArray(object)
  if (isArray) {
    // Every element takes at least two bytes of JSON: a sparse `length = 1e9` is refused before a loop over it.
    if (object.length * 2 > maxBytes) throw new Invalid(trail, `larger than the ${maxBytes}-byte limit`)
  } else {
    const special = describeObject(object)
    if (special !== undefined) throw new Invalid(trail, special)
    if (!isPlainPrototype(Object.getPrototypeOf(object))) {
      const name = (object as { constructor?: { name?: unknown } }).constructor?.name
      throw new Invalid(
        trail,
        `${typeof name === 'string' && name !== '' ? `a ${name} instance` : 'a class instance'} is not plain JSON data: pass a plain object`,
      )
    }
  }
  const copy: Record<string, unknown> | unknown[] = isArray ? new Array<unknown>(object.length) : {}
  ancestors.add(object)
  stack.push({ leave: object })
  // An array's indexes, or an object's own keys (symbols too, to refuse them), last first.
  const keys = isArray ? undefined : Reflect.ownKeys(object)
  for (let position = (keys ?? (object as unknown[])).length - 1; position >= 0; position--) {
    const key = keys === undefined ? position : (keys[position] as string | symbol)
    if (typeof key === 'symbol') throw new Invalid(trail, `a symbol key (${String(key)}) is not JSON data`)
    const here: At = { parent: trail, key }
    if (forbiddenKeys.has(key as string)) throw new Invalid(here, `the key "${key}" is not allowed`)
    const descriptor = Object.getOwnPropertyDescriptor(object, key)
    if (descriptor === undefined || (!isArray && descriptor.enumerable !== true)) {
      if (isArray) throw new Invalid(here, 'an empty array slot is not JSON data (use null)')
      continue
    }
    if (!('value' in descriptor)) throw new Invalid(here, 'a getter is not JSON data')
    // `undefined` in an object is left out (as JSON.stringify does); in an array it is refused when visited.
    if (isArray || descriptor.value !== undefined) stack.push({ value: descriptor.value, trail: here, depth: depth + 1, into: copy, key })
  }
  return copy
}

/**
 * Whether JSON text nests objects and arrays more than `maxDepth` levels (the outermost value is
 * level 1), read from the text alone: brackets inside strings do not count.
 */
export function jsonTextNestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position)
    if (inString) {
      if (code === 0x5c) position++
      else if (code === 0x22) inString = false
      continue
    }
    if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      depth++
      if (depth > maxDepth) return true
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return false
}
