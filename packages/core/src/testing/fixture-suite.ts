import { describe, expect, it } from 'vitest'
import { read, type Reader } from '../validation/readers'
import { problemIssue } from '../validation/issues'
import { checkFixture } from './fixture-cases'

/** A fixture file (`<fixture>.json`) and the check its cases go through. */
export interface FixtureCheck {
  readonly fixture: string
  readonly run: (input: unknown) => FixtureRun
}

export type FixtureRun = { ok: true; value: unknown } | { ok: false; error: unknown }

/**
 * What `run` gives, or the typed error it throws (`isError`; anything else is rethrown) as its one
 * issue: a check that stops at the first problem names exactly one. `shown` picks what a case records
 * of the error (default: the issue).
 */
export function oneIssueOutcome<E extends { readonly issues: readonly unknown[] }>(
  isError: (error: unknown) => error is E,
  run: () => unknown,
  shown: (error: E) => unknown = (error) => error.issues[0],
): FixtureRun {
  try {
    return { ok: true, value: run() }
  } catch (error) {
    if (!isError(error)) throw error
    expect(error.issues).toHaveLength(1)
    return { ok: false, error: shown(error) }
  }
}

/** What `reader` makes of a value: its checked copy, or its first problem as an issue (path and rule). */
export function readerOutcome(reader: Reader<unknown>): (value: unknown) => FixtureRun {
  return (value) => {
    const result = read(reader, value)
    return result.ok ? { ok: true, value: result.value } : { ok: false, error: problemIssue(result.problem) }
  }
}

/** One test per fixture file in `folder`: every recorded case (more than ten) gives its recorded outcome. */
export function describeFixtureFiles(title: string, folder: URL, checks: readonly FixtureCheck[]): void {
  describe(title, () => {
    for (const { fixture, run } of checks) {
      it(`${fixture}.json`, () => {
        const result = checkFixture(new URL(`${fixture}.json`, folder), run)
        expect(result.cases).toBeGreaterThan(10)
        expect(result.mismatches, `${result.mismatches.length} of ${result.cases} cases differ`).toEqual([])
      })
    }
  })
}
