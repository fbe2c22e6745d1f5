import { z } from 'zod/mini'
import { callRecordSchema } from '../entries/entry-schema'
import { maxAttemptErrorLength, type CallAttempt } from './call-record'

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
