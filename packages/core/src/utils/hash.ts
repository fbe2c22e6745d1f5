/**
 * cyrb53: a fast, well-mixed 53-bit string hash. Not cryptographic: used for cache keys and
 * change detection, where every match is confirmed or harmless.
 */
export function hashString(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/** Folds a sequence of values into one hash, order-sensitive. */
export class HashBuilder {
  #state = 0
  add(value: string | number): this {
    this.#state = hashString(typeof value === 'number' ? `#${value}` : `s${value}`, this.#state % 4294967296)
    return this
  }
  hex(): string {
    return this.#state.toString(16).padStart(14, '0')
  }
}

/** A JSON value's hash in hex: how call records identify the exact messages, policy and tools of a call. */
export function hashJson(value: unknown): string {
  return hashString(JSON.stringify(value)).toString(16)
}

/**
 * FNV-1a over UTF-16 code units as 8 hex digits: tiny and stable across runtimes. Used where a
 * short, deterministic suffix keeps sanitized provider names and ids apart (tool ids, tool names).
 */
export function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}
