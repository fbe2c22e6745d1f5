// What the projector's property suites share: the counters they project with, how fast-check
// prints a failing case, and one property checked over a fixed-seed stream of random cases.
import fc from 'fast-check'
import { beforeAll, it } from 'vitest'
import type { Thread } from '../entries/thread'
import { project } from '../project/project'
import type { ProjectInput, ProjectionResult } from '../project/types'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { buildThread, type Action } from './random-thread'

/** A random case: a thread and the input that projects it. */
export interface ProjectionCase {
  readonly thread: Thread
  readonly input: ProjectInput
}

/** The exact (o200k_base) and heuristic counters, made before the suite's properties run. */
export function suiteCounters(): { readonly exact: TokenCounter; readonly heuristic: TokenCounter } {
  const counters = {} as { exact: TokenCounter; heuristic: TokenCounter }
  beforeAll(async () => {
    counters.exact = await createTokenCounter('o200k_base')
    counters.heuristic = await createTokenCounter('heuristic')
  })
  return counters
}

/** The thread the actions build and its input, printed by fast-check as entries, policy and pending (a Thread's fields are private). */
export function projectionCase(actions: readonly Action[], input: Omit<ProjectInput, 'thread'>): ProjectionCase {
  const thread = buildThread(actions)
  const testCase = { thread, input: { thread, ...input } }
  return Object.assign(testCase, {
    [fc.toStringMethod]: () =>
      `entries=${JSON.stringify(thread.entries)} policy=${JSON.stringify(input.policy)} pending=${JSON.stringify(input.pending)}`,
  })
}

/**
 * A `check(name, property)` that runs `property` on `runs` cases of `cases` at `seed`, each with its
 * projection. A fixed seed checks the same cases every run; fast-check prints the seed and the shrunk
 * counterexample on failure, so running the file again reproduces it.
 */
export function projectionCheck<T extends ProjectionCase>(
  cases: fc.Arbitrary<T>,
  { runs, seed, what = 'random threads' }: { readonly runs: number; readonly seed: number; readonly what?: string },
): (name: string, property: (testCase: T, result: ProjectionResult) => void) => void {
  return (name, property) => {
    it(`${name} (${runs} ${what}, seed ${seed})`, () => {
      fc.assert(
        fc.property(cases, (testCase) => property(testCase, project(testCase.input))),
        { numRuns: runs, seed },
      )
    })
  }
}
