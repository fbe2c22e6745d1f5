// TEST ONLY: the zod schemas of call attempts and token calibrations, the oracle of the hand-written
// readers in calls/ (see entry-schema.oracle.ts).
import { z } from 'zod/mini'
import { callRecordSchema } from './entry-schema.oracle'
import { maxAttemptErrorLength, type CallAttempt } from '../../calls/call-record'
import type { CalibrationSample, TokenCalibration } from '../../calls/calibration'
const refText = z.string().check(z.minLength(1), z.maxLength(256))

/** Validates an attempt read from the store's attempts log (or an import). */
export const callAttemptSchema: z.ZodMiniType<CallAttempt> = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(300)),
  threadId: refText,
  callId: refText,
  requestId: z.exactOptional(refText),
  attempt: z.int().check(z.positive(), z.lte(1_000)),
  status: z.enum(['retried', 'failed', 'aborted']),
  record: callRecordSchema,
  error: z.exactOptional(z.strictObject({
      name: z.string().check(z.minLength(1), z.maxLength(128)),
      message: z.string().check(z.maxLength(maxAttemptErrorLength)),
      status: z.exactOptional(z.int().check(z.gte(100), z.lte(599))),
    })),
})

export const calibrationSampleSchema: z.ZodMiniType<CalibrationSample> = z.strictObject({
  local: z.int().check(z.positive()),
  reported: z.int().check(z.positive()),
  messages: z.int().check(z.nonnegative()),
})

export const tokenCalibrationSchema: z.ZodMiniType<TokenCalibration> = z.strictObject({
  model: z.string().check(z.minLength(1), z.maxLength(256)),
  counter: z.string().check(z.minLength(1), z.maxLength(64)),
  samples: z.array(calibrationSampleSchema).check(z.maxLength(1_000)),
  ratio: z.number().check(z.positive()),
  spread: z.number().check(z.nonnegative()),
  calls: z.int().check(z.nonnegative()),
  updatedAt: z.number().check(z.nonnegative()),
})
