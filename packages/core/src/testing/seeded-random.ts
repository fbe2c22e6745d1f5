/**
 * mulberry32: a small, fast seeded PRNG giving numbers in [0, 1), the same stream for the same
 * seed; for varying test and bench data, never for anything cryptographic.
 */
// Repeated on purpose: demo/src/chat/long-session/long-session-inputs.ts has its own copy (shipped demo code does not import the test kit).
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}
