import { z } from 'zod/mini'
import type { CallAttempt } from '../calls/call-record'
import { callAttemptReader } from '../calls/call-attempt-schema'
import { tokenCalibrationReader, type TokenCalibration } from '../calls/calibration'
import type { EntryRefs, JsonObject } from '../entries/entry'
import { entryRefsReader } from '../entries/entry-readers'
import { memoryIdReader, memoryReader, type Memory } from '../memory/memory'
import { jsonObject, read, type Reader } from './readers'

// Core checks its data with its own readers; the other packages build zod schemas of their own
// rows and options that contain core's data. These adapters let them compose a reader into a zod
// schema, so the rule has one owner (the reader) and reads the same in both. Only the other
// packages import this module (through `@threadlens/core/internal`): core's main entry and its
// public subpaths never do.

/** A zod schema that checks with `reader`; its issue is the reader's first problem. */
export function zodOf<T>(reader: Reader<T>): z.ZodMiniType<T> {
  return z.pipe(
    z.unknown(),
    z.transform((value, context) => {
      const result = read(reader, value)
      if (result.ok) return result.value
      context.issues.push({ code: 'custom', message: result.problem.rule, path: [...result.problem.path], input: value })
      return z.NEVER
    }),
  ) as unknown as z.ZodMiniType<T>
}

/** A plain JSON object (see `readJsonData`), as a zod schema. */
export const jsonObjectSchema: z.ZodMiniType<JsonObject> = /* @__PURE__ */ zodOf(jsonObject)

/** An entry's `refs`, as a zod schema. */
export const entryRefsSchema: z.ZodMiniType<EntryRefs> = /* @__PURE__ */ zodOf(entryRefsReader)

/** A call attempt of the store's attempts log, as a zod schema. */
export const callAttemptSchema: z.ZodMiniType<CallAttempt> = /* @__PURE__ */ zodOf(callAttemptReader)

/** A stored token calibration, as a zod schema. */
export const tokenCalibrationSchema: z.ZodMiniType<TokenCalibration> = /* @__PURE__ */ zodOf(tokenCalibrationReader)

/** A whole memory, as a zod schema. */
export const memorySchema: z.ZodMiniType<Memory> = /* @__PURE__ */ zodOf(memoryReader)

/** A memory id, as a zod schema. */
export const memoryIdSchema: z.ZodMiniType<string> = /* @__PURE__ */ zodOf(memoryIdReader)
