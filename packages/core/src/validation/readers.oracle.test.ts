import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { callAttemptReader } from '../calls/call-attempt-schema'
import { tokenCalibrationReader } from '../calls/calibration'
import { parseEntry, parseEntryInput } from '../entries/entry-schema'
import { InvalidEntryError, InvalidPolicyError } from '../errors/threadlens-error'
import { memoryReader } from '../memory/memory'
import { modelInfoReader } from '../models/model-info'
import { modelInfoSchema } from '../testing/oracle/model-info.oracle'
import { definePolicy } from '../policy/policy'
import { policyOptionsArbitrary } from '../testing/random-thread'
import { callAttemptSchema, tokenCalibrationSchema } from '../testing/oracle/calls.oracle'
import { oracleParseEntry, oracleParseEntryInput } from '../testing/oracle/entry-schema.oracle'
import { memorySchema } from '../testing/oracle/memory.oracle'
import { mutate, mutationsArbitrary, outcome } from '../testing/oracle/mutations'
import { oracleDefinePolicy } from '../testing/oracle/policy.oracle'
import { inputOf, sampleAttempt, sampleCalibration, sampleMemory, sampleModel, storedEntryArbitrary } from '../testing/oracle/samples'
import { issuePath } from './issues'
import { read, type Reader } from './readers'
import { firstIssue, safeParse } from './zod-issues'

// The hand-written readers against the zod schemas core used before them (the oracle, test-only):
// over valid values and random damage to them, both accept the same values, return the same
// output (same JSON text: same keys in the same order, so hashes of policies do not change), and
// report the same first problem.

const seed = 20261123
const runs = 1500

function entryError(error: unknown): unknown {
  if (!(error instanceof InvalidEntryError)) throw error
  return { field: error.field, rule: error.rule }
}

function policyError(error: unknown): unknown {
  if (!(error instanceof InvalidPolicyError)) throw error
  return error.issues[0]
}

function sameAsSchema<T>(reader: Reader<T>, schema: Parameters<typeof safeParse>[0], value: unknown): void {
  const mine = read(reader, value)
  const theirs = safeParse(schema, value)
  if (theirs.success) {
    expect(mine).toEqual({ ok: true, value: theirs.data })
    if (mine.ok) expect(JSON.stringify(mine.value)).toBe(JSON.stringify(theirs.data))
  } else {
    const issue = firstIssue(theirs.error, 'invalid')
    expect(mine.ok ? mine : { path: issuePath(mine.problem.path), message: mine.problem.rule }).toEqual(issue)
  }
}

describe('hand-written readers accept exactly what the zod oracle accepts', () => {
  it(`stored entries, valid and damaged (seed ${seed})`, () => {
    fc.assert(
      fc.property(storedEntryArbitrary, mutationsArbitrary, (entry, mutations) => {
        const value = mutate(entry, mutations)
        expect(outcome(() => parseEntry(value), entryError)).toEqual(outcome(() => oracleParseEntry(value), entryError))
      }),
      { seed, numRuns: runs },
    )
  })

  it(`entry inputs, valid and damaged (seed ${seed})`, () => {
    fc.assert(
      fc.property(storedEntryArbitrary, fc.boolean(), mutationsArbitrary, (entry, keepOptional, mutations) => {
        const value = mutate(inputOf(entry, keepOptional), mutations)
        expect(outcome(() => parseEntryInput(value), entryError)).toEqual(outcome(() => oracleParseEntryInput(value), entryError))
      }),
      { seed, numRuns: runs },
    )
  })

  it(`policy options, valid and damaged, with the same defaults in the same key order (seed ${seed})`, () => {
    fc.assert(
      fc.property(policyOptionsArbitrary, mutationsArbitrary, (options, mutations) => {
        const value = mutate(options, mutations) as Parameters<typeof definePolicy>[0]
        expect(outcome(() => definePolicy(value), policyError)).toEqual(outcome(() => oracleDefinePolicy(value as never), policyError))
      }),
      { seed, numRuns: runs },
    )
  })

  it(`memories, call attempts, token calibrations and models, valid and damaged (seed ${seed})`, () => {
    fc.assert(
      fc.property(mutationsArbitrary, (mutations) => {
        sameAsSchema(memoryReader, memorySchema, mutate(sampleMemory, mutations))
        sameAsSchema(callAttemptReader, callAttemptSchema, mutate(sampleAttempt, mutations))
        sameAsSchema(tokenCalibrationReader, tokenCalibrationSchema, mutate(sampleCalibration, mutations))
        sameAsSchema(modelInfoReader, modelInfoSchema, mutate(sampleModel, mutations))
      }),
      { seed, numRuns: runs },
    )
  })
})
