import { z } from 'zod'
import { callRecordSchema } from '../entries/entry-schema'
import { maxAttemptErrorLength, type CallAttempt } from './call-record'

const refText = z.string().min(1).max(256)

/** Validates an attempt read from the store's attempts log (or an import). */
export const callAttemptSchema: z.ZodType<CallAttempt> = z.strictObject({
  id: z.string().min(1).max(300),
  threadId: refText,
  callId: refText,
  requestId: refText.exactOptional(),
  attempt: z.number().int().positive().max(1_000),
  status: z.enum(['retried', 'failed', 'aborted']),
  record: callRecordSchema,
  error: z
    .strictObject({
      name: z.string().min(1).max(128),
      message: z.string().max(maxAttemptErrorLength),
      status: z.number().int().min(100).max(599).exactOptional(),
    })
    .exactOptional(),
})
