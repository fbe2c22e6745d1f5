import type { JsonValue } from '../entries/entry'
import { recallTerms } from '../recall/recall-terms'
import { bm25Score, defaultBm25, PREFIX_WEIGHT } from '../recall/bm25'
import type { Memory, Space, Task } from './memory'

// Full-text search over a memory's items with the terms recall uses (`recallTerms`), scored with
// BM25+ (the thread index's formula) by a small loop: memory is small, a whole index is not worth keeping.

export interface MemoryQueryOptions {
  /** At most this many matches, best first. Default 5. */
  readonly topK?: number
  /** The spaces to search; ties keep this order. Default: every space (`tasks`, `world`, then custom ones). */
  readonly spaces?: readonly string[]
}

interface MemoryMatchFields {
  readonly space: string
  /** The item as the memory segment shows it: a task as `[ ] id: text`, a map entry as `key: <JSON>`, a list item as JSON. */
  readonly text: string
  readonly score: number
  /** The item's terms that matched the query, sorted. */
  readonly terms: readonly string[]
}

/** An item found relevant: a map space's entry (`key`), or a list's item or a task (`index`, its position). */
export type MemoryMatch =
  (MemoryMatchFields & { readonly key: string; readonly index?: never }) | (MemoryMatchFields & { readonly index: number; readonly key?: never })

/** Text past this many characters of one item is not searched (a huge value is found by its start). */
const MAX_ITEM_CHARACTERS = 200_000
/** Distinct query terms searched for, at most (the first ones of the text). */
const MAX_QUERY_TERMS = 256

interface Item {
  readonly space: string
  readonly key: string | undefined
  readonly index: number
  readonly text: string
  /** Term → frequency in the item. */
  readonly counts: ReadonlyMap<string, number>
  readonly length: number
}

/**
 * The memory items most relevant to `text`, best first: each task of `tasks`, each key and value
 * of a map space, each item of a list space, ranked by BM25+ over their terms (`recallTerms`, the
 * same folding as thread recall; a query term of 4 or more characters also finds longer terms it
 * starts; the first 256 distinct terms of `text` are searched). Deterministic: equal scores keep
 * the order of the spaces and of the items in them.
 * No searchable word in `text` (empty, or only words like "the"), or no match, gives `[]`.
 */
export function queryMemory(memory: Memory, text: string, options: MemoryQueryOptions = {}): MemoryMatch[] {
  const topK = options.topK ?? 5
  const query = new Set([...new Set(recallTerms(text))].slice(0, MAX_QUERY_TERMS))
  if (topK <= 0 || query.size === 0) return []
  const prefixes = [...query].filter((term) => term.length >= 4)
  const weightOf = (term: string): number => (query.has(term) ? 1 : prefixes.some((prefix) => term.startsWith(prefix)) ? PREFIX_WEIGHT : 0)
  const items = memoryItems(memory, options.spaces ?? Object.keys(memory.spaces))
  if (items.length === 0) return []
  const frequency = new Map<string, number>()
  let totalLength = 0
  for (const item of items) {
    totalLength += item.length
    for (const term of item.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  }
  const average = Math.max(1, totalLength / items.length)
  const scored: { item: Item; order: number; score: number; terms: string[] }[] = []
  items.forEach((item, order) => {
    let score = 0
    const matched = new Set<string>()
    for (const [term, count] of item.counts) {
      const weight = weightOf(term)
      if (weight === 0) continue
      score += weight * bm25Score(count, frequency.get(term) ?? 0, items.length, item.length, average, defaultBm25)
      matched.add(term)
    }
    if (score > 0) scored.push({ item, order, score, terms: [...matched].sort() })
  })
  scored.sort((a, b) => b.score - a.score || a.order - b.order)
  return scored.slice(0, topK).map(({ item, score, terms }) => {
    const fields = { space: item.space, text: item.text, score, terms }
    return item.key === undefined ? { ...fields, index: item.index } : { ...fields, key: item.key }
  })
}

/** Every item of the named spaces (each once, missing ones skipped), with its terms counted. */
function memoryItems(memory: Memory, names: readonly string[]): Item[] {
  const items: Item[] = []
  const add = (space: string, key: string | undefined, index: number, text: string, searched: string): void => {
    const terms = recallTerms(searched.length > MAX_ITEM_CHARACTERS ? searched.slice(0, MAX_ITEM_CHARACTERS) : searched)
    const counts = new Map<string, number>()
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    items.push({ space, key, index, text, counts, length: terms.length })
  }
  for (const name of new Set(names)) {
    const space: Space | undefined = Object.hasOwn(memory.spaces, name) ? memory.spaces[name] : undefined
    if (space === undefined) continue
    if (name === 'tasks') {
      ;(space.data as readonly Task[]).forEach((task, index) =>
        add(name, undefined, index, `[${task.status === 'done' ? 'x' : ' '}] ${task.id}: ${task.text}`, task.text),
      )
    } else if (space.kind === 'map') {
      Object.entries(space.data).forEach(([key, value], index) =>
        add(name, key, index, `${key}: ${JSON.stringify(value)}`, `${key} ${plainText(value)}`),
      )
    } else {
      space.data.forEach((value, index) => add(name, undefined, index, JSON.stringify(value), plainText(value)))
    }
  }
  return items
}

/** A JSON value's words as plain text (strings as they are, not JSON-escaped; object keys included), at most `MAX_ITEM_CHARACTERS` of them. */
function plainText(value: JsonValue): string {
  const parts: string[] = []
  let length = 0
  const stack: JsonValue[] = [value]
  while (stack.length > 0 && length < MAX_ITEM_CHARACTERS) {
    const next = stack.pop() as JsonValue
    if (next === null) continue
    if (typeof next !== 'object') {
      const text = String(next)
      parts.push(text)
      length += text.length + 1
    } else if (Array.isArray(next)) {
      for (let position = next.length - 1; position >= 0; position--) stack.push(next[position] as JsonValue)
    } else {
      const entries = Object.entries(next)
      for (let position = entries.length - 1; position >= 0; position--) {
        const [key, item] = entries[position] as [string, JsonValue]
        stack.push(item, key)
      }
    }
  }
  return parts.join(' ')
}
