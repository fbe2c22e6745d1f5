import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { callAttemptReader } from '../calls/call-attempt-schema'
import { tokenCalibrationReader } from '../calls/calibration'
import { contentPartReader } from '../entries/content-parts'
import { parseEntry, parseEntryInput } from '../entries/entry-schema'
import { InvalidEntryError, InvalidPolicyError } from '../errors/threadlens-error'
import { memoryReader } from '../memory/memory'
import { modelInfoReader } from '../models/model-info'
import { definePolicy, type PolicyOptions } from '../policy/policy'
import { describeFixtureFiles, readerOutcome, type FixtureCheck, type FixtureRun } from '../testing/fixture-suite'
import { mutate, mutationsArbitrary } from '../testing/mutations'
import { policyOptionsArbitrary } from '../testing/random-thread'
import { inputOf, sampleAttempt, sampleCalibration, sampleEntries, sampleMemory, sampleModel, storedEntryArbitrary } from '../testing/samples'
import { read, type Reader } from './readers'

// Accept/reject fixtures of core's readers (testing/fixtures/*.json): each case is an input and what
// the reader must do with it: accept it with this output (same JSON text: same keys in the same
// order, so hashes of policies do not change; "unchanged" when the output is the input) or reject it
// with this first problem. The cases were recorded from the zod schemas core validated with before
// these readers (valid samples from testing/samples.ts and random damage from testing/mutations.ts,
// seeded, deduplicated, one case at least for every rule that rejected one), and the readers agreed
// on all of them. A rule change is a change to the fixture: edit the case by hand, or run
//   UPDATE_FIXTURES=1 node_modules/.bin/vitest run --project node packages/core/src/validation/readers.fixtures.test.ts
// which rewrites the expected outcomes from the readers as they are (refused under CI), and review
// the diff of the JSON files.

function attempt(run: () => unknown, describe: (error: unknown) => unknown): FixtureRun {
  try {
    return { ok: true, value: run() }
  } catch (error) {
    return { ok: false, error: describe(error) }
  }
}

/** The fields of a rejected entry that callers see; any other error fails the test. */
function entryError(error: unknown): unknown {
  if (!(error instanceof InvalidEntryError)) throw error
  return { field: error.field, rule: error.rule }
}

function policyError(error: unknown): unknown {
  if (!(error instanceof InvalidPolicyError)) throw error
  return error.issues[0]
}

// Repeated on purpose: packages/store/src/readers.fixtures.test.ts has a table of the same shape (its own fixture files and readers).
const checks: readonly FixtureCheck[] = [
  { fixture: 'stored-entries', run: (value) => attempt(() => parseEntry(value), entryError) },
  { fixture: 'entry-inputs', run: (value) => attempt(() => parseEntryInput(value), entryError) },
  {
    fixture: 'policy-options',

    run: (value) => attempt(() => definePolicy(value as PolicyOptions), policyError),
  },
  { fixture: 'memories', run: readerOutcome(memoryReader) },
  { fixture: 'call-attempts', run: readerOutcome(callAttemptReader) },
  { fixture: 'token-calibrations', run: readerOutcome(tokenCalibrationReader) },
  { fixture: 'model-info', run: readerOutcome(modelInfoReader) },
  { fixture: 'content-parts', run: readerOutcome(contentPartReader) },
]

describeFixtureFiles('readers: the recorded accept/reject fixtures', new URL('../testing/fixtures/', import.meta.url), checks)

const seed = 20261123
const runs = 500

// Beyond the recorded cases: on any damage, a reader returns a value or a typed problem (never an
// untyped throw), and what it accepted it accepts again unchanged.
describe('readers on random damage', () => {
  it(`entries: InvalidEntryError or a value that reads back the same (seed ${seed})`, () => {
    fc.assert(
      fc.property(storedEntryArbitrary, fc.boolean(), mutationsArbitrary, (entry, keepOptional, mutations) => {
        for (const [value, parse] of [
          [mutate(entry, mutations), parseEntry],
          [mutate(inputOf(entry, keepOptional), mutations), parseEntryInput],
        ] as const) {
          const outcome = attempt(() => parse(value), entryError)
          if (outcome.ok) expect(JSON.stringify(parse(outcome.value))).toBe(JSON.stringify(outcome.value))
        }
      }),
      { seed, numRuns: runs },
    )
  })

  it(`policies: InvalidPolicyError or a policy that reads back the same (seed ${seed})`, () => {
    fc.assert(
      fc.property(policyOptionsArbitrary, mutationsArbitrary, (options, mutations) => {
        const outcome = attempt(() => definePolicy(mutate(options, mutations) as PolicyOptions), policyError)
        if (outcome.ok) expect(JSON.stringify(definePolicy(outcome.value as PolicyOptions))).toBe(JSON.stringify(outcome.value))
      }),
      { seed, numRuns: runs },
    )
  })

  it(`memories, call attempts, calibrations, models and content parts: a problem or a value that reads back the same (seed ${seed})`, () => {
    const parts = sampleEntries.flatMap((entry) => (entry.payload as { parts?: readonly unknown[] }).parts ?? [])
    const bases: readonly [Reader<unknown>, unknown][] = [
      [memoryReader, sampleMemory],
      [callAttemptReader, sampleAttempt],
      [tokenCalibrationReader, sampleCalibration],
      [modelInfoReader, sampleModel],
      ...parts.map((part): [Reader<unknown>, unknown] => [contentPartReader, part]),
    ]
    fc.assert(
      fc.property(mutationsArbitrary, (mutations) => {
        for (const [reader, base] of bases) {
          const result = read(reader, mutate(base, mutations))
          if (result.ok) expect(read(reader, result.value)).toEqual(result)
        }
      }),
      { seed, numRuns: runs },
    )
  })
})
