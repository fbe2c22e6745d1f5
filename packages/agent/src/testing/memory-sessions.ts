// Test helper: the random inputs of the memory-hold properties (memory-hysteresis, next-call-memory).
import fc from 'fast-check'

/** A hold bound, in turns (`cache.memoryHoldTurns`). */
export const holdTurns = fc.integer({ min: 1, max: 5 })

/** A context window, in tokens: small enough that memory revisions move it. */
export const windowTokens = fc.integer({ min: 700, max: 1500 })

/** For each turn of a session of 6 to `maxTurns` turns, whether it writes a large memory revision (every fifth turn at most). */
export function largeRevisionTurns(maxTurns: number): fc.Arbitrary<boolean[]> {
  return fc.array(fc.boolean(), { minLength: 6, maxLength: maxTurns }).map((flags) => flags.map((flag, turn) => flag && turn % 5 === 4))
}
