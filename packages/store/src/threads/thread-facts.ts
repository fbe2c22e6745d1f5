import type { ThreadFacts } from '@threadlens/core/internal'
import { z } from 'zod/mini'

// The facts and their fold are the projector's (core's `ThreadFacts`, `foldThreadFacts`); the store
// keeps them on the thread's row, updated in the same transaction as every append, and checks them
// with this schema when it reads the row back.
const seqSchema = z.int().check(z.gte(-1))

export const threadFactsSchema: z.ZodMiniType<ThreadFacts> = z.strictObject({
  resetSeq: seqSchema,
  lastUserSeq: seqSchema,
  summary: z.nullable(z.strictObject({ seq: seqSchema, fromSeq: seqSchema, toSeq: seqSchema })),
  pinnedSeqs: z.array(z.int().check(z.nonnegative())),
})
