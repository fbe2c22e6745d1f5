// TEST ONLY: the zod schemas core validated entries with before its hand-written readers. The
// property tests check that the readers accept exactly what these accept, with the same output and
// the same first problem. Never imported by core's runtime code.
import { z } from 'zod/mini'
import type { CallRecord } from '../../calls/call-record'
import type { Entry, EntryInput, EntryMeta, EntryRefs, JsonObject, JsonValue } from '../../entries/entry'
import { idPattern } from '../../entries/ids'
import { InvalidEntryError } from '../../errors/threadlens-error'
import { readJsonData } from '../../entries/json-data'
import { partsText } from '../../entries/content-parts'
import { argumentsTextMatches } from '../../entries/arguments-text'
import { argumentsTextRule, toolResultPartsRule } from '../../entries/entry-readers'
import { readEntryData } from '../../entries/entry-schema'
import { firstIssue, safeParse } from '../../validation/zod-issues'
import { contentPartSchema } from './content-parts.oracle'

/**
 * Plain JSON data (see `readJsonData` for the rules); the output is a clean copy. Checked by an
 * iterative walk, never by recursion, so hostile nesting or cycles give an issue, not a RangeError.
 */
export const jsonValueSchema: z.ZodMiniType<JsonValue> = z.pipe(z.unknown(), z.transform((value, context) => {
  const result = readJsonData(value)
  if (result.ok) return result.value
  context.issues.push({ code: 'custom', message: result.problem.rule, path: [...result.problem.path], input: value })
  return z.NEVER
}))

/** A plain JSON object (not an array); the same rules as `jsonValueSchema`. */
export const jsonObjectSchema: z.ZodMiniType<JsonObject> = z.pipe(z.unknown(), z.transform((value, context) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    context.issues.push({ code: 'custom', message: `expected a JSON object, got ${describeKind(value)}`, input: value })
    return z.NEVER
  }
  const result = readJsonData(value)
  if (result.ok) return result.value as JsonObject
  context.issues.push({ code: 'custom', message: result.problem.rule, path: [...result.problem.path], input: value })
  return z.NEVER
}))

function describeKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value
}

const seqSchema = z.int().check(z.nonnegative())
const refString = z.string().check(z.minLength(1), z.maxLength(256))

export const entryRefsSchema: z.ZodMiniType<EntryRefs> = z.strictObject({
  requestId: z.exactOptional(refString),
  callId: z.exactOptional(refString),
  toolCallId: z.exactOptional(refString),
  iteration: z.exactOptional(z.int().check(z.nonnegative())),
  parentCallId: z.exactOptional(refString),
})

const hashSchema = z.string().check(z.minLength(1), z.maxLength(64))
const tokenCountSchema = z.int().check(z.nonnegative())

const callStepSchema = z.strictObject({
  stopReason: z.string().check(z.minLength(1), z.maxLength(64)),
  inputTokens: z.exactOptional(tokenCountSchema),
  outputTokens: z.exactOptional(tokenCountSchema),
  cachedInputTokens: z.exactOptional(tokenCountSchema),
  cacheWriteInputTokens: z.exactOptional(tokenCountSchema),
  firstTokenMs: z.exactOptional(z.number().check(z.nonnegative())),
  durationMs: z.exactOptional(z.number().check(z.nonnegative())),
})

/** Validates `meta.call` (see `CallRecord` in `calls/`); it lives here because entries are validated here. */
export const callRecordSchema: z.ZodMiniType<CallRecord> = z.strictObject({
  model: z.string().check(z.minLength(1), z.maxLength(256)),
  provider: z.string().check(z.minLength(1), z.maxLength(64)),
  counter: z.string().check(z.minLength(1), z.maxLength(64)),
  policyHash: hashSchema,
  policy: z.exactOptional(jsonObjectSchema),
  toolsHash: hashSchema,
  tools: z.exactOptional(z.array(jsonObjectSchema)),
  memoryHash: z.exactOptional(hashSchema),
  memory: z.exactOptional(z.string()),
  basisSeq: z.int().check(z.nonnegative()),
  messagesHash: hashSchema,
  inputTokens: z.exactOptional(tokenCountSchema),
  outputTokens: z.exactOptional(tokenCountSchema),
  cachedInputTokens: z.exactOptional(tokenCountSchema),
  cacheWriteInputTokens: z.exactOptional(tokenCountSchema),
  localInputTokens: z.exactOptional(tokenCountSchema),
  sentMessages: z.exactOptional(tokenCountSchema),
  recalledEntries: z.exactOptional(tokenCountSchema),
  summarySeq: z.exactOptional(z.int().check(z.nonnegative())),
  stopReason: z.string().check(z.minLength(1), z.maxLength(64)),
  startedAt: z.exactOptional(z.number().check(z.nonnegative())),
  firstTokenMs: z.exactOptional(z.number().check(z.nonnegative())),
  durationMs: z.exactOptional(z.number().check(z.nonnegative())),
  attempts: z.exactOptional(z.int().check(z.positive(), z.lte(1_000))),
  steps: z.exactOptional(z.array(callStepSchema).check(z.maxLength(1_000))),
})

export const entryMetaSchema: z.ZodMiniType<EntryMeta> = z.strictObject({
  pinned: z.exactOptional(z.boolean()),
  tokens: z.exactOptional(z.record(z.string().check(z.minLength(1), z.maxLength(64)), z.int().check(z.nonnegative()))),
  interrupted: z.exactOptional(z.boolean()),
  truncated: z.exactOptional(z.strictObject({
      by: z.enum(['lines', 'bytes']),
      totalLines: z.int().check(z.nonnegative()),
      totalBytes: z.int().check(z.nonnegative()),
    })),
  call: z.exactOptional(callRecordSchema),
  app: z.exactOptional(jsonObjectSchema),
  unreadable: z.exactOptional(z.strictObject({ field: z.string().check(z.maxLength(10_000)), rule: z.string().check(z.maxLength(10_000)) })),
  originalToolCallId: z.exactOptional(z.string().check(z.minLength(1), z.maxLength(256))),
})

/** OpenAI's rule for a speaker name (letters, digits, `_` and `-`, at most 64). */
const speakerNameSchema = z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a speaker name is 1-64 characters of a-z A-Z 0-9 _ -'))

export const messagePayloadSchema = z.strictObject({
    role: z.enum(['user', 'assistant', 'system']),
    content: z.string(),
    name: z.exactOptional(speakerNameSchema),
    refusal: z.exactOptional(z.string()),
    parts: z.exactOptional(z.array(contentPartSchema).check(z.maxLength(1_000))),
  }).check(z.superRefine((payload, context) => {
    if (payload.refusal !== undefined && payload.role !== 'assistant') {
      context.addIssue({ code: 'custom', path: ['refusal'], message: 'only an assistant message carries a refusal' })
    }
    if (payload.parts === undefined) return
    if (payload.content !== partsText(payload.parts)) {
      context.addIssue({ code: 'custom', path: ['content'], message: 'with parts, content must be partsText(parts): the text parts joined by a newline' })
    }
    if (payload.role !== 'user' && payload.parts.some((part) => part.type !== 'text')) {
      context.addIssue({ code: 'custom', path: ['parts'], message: `images and files are only accepted in user messages (providers refuse them from the ${payload.role})` })
    }
  }))

export const toolCallPayloadSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  arguments: jsonObjectSchema,
  argumentsText: z.exactOptional(z.string()),
}).check(z.refine((payload) => argumentsTextMatches(payload), { message: argumentsTextRule, path: ['argumentsText'] }))

export const toolResultPayloadSchema = z.union([
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(256)),
    result: jsonValueSchema,
    parts: z.exactOptional(z.array(z.strictObject({ type: z.literal('text'), text: z.string() })).check(z.maxLength(1_000))),
  }).check(z.refine((payload) => payload.parts === undefined || payload.result === partsText(payload.parts), { message: toolResultPartsRule, path: ['result'] })),
  z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(256)), error: z.string() }),
])

export const summaryPayloadSchema = z
  .strictObject({ fromSeq: seqSchema, toSeq: seqSchema, content: z.string() })
  .check(z.refine((payload) => payload.fromSeq <= payload.toSeq, { message: 'fromSeq must be <= toSeq', path: ['fromSeq'] }))

export const contextOpPayloadSchema = z
  .strictObject({ op: z.enum(['pin', 'unpin', 'reset', 'compaction-failed']), target: z.exactOptional(seqSchema), reason: z.string() })
  .check(
    z.refine((payload) => (payload.op !== 'pin' && payload.op !== 'unpin') || payload.target !== undefined, {
      message: 'pin and unpin need a target seq',
      path: ['target'],
    }),
  )

const inputCommon = {
  refs: z.exactOptional(entryRefsSchema),
  meta: z.exactOptional(entryMetaSchema),
  createdAt: z.exactOptional(z.int().check(z.nonnegative())),
  id: z.exactOptional(z.string().check(z.regex(idPattern))),
}

export const entryInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), payload: messagePayloadSchema, ...inputCommon }),
  z.strictObject({ kind: z.literal('tool_call'), payload: toolCallPayloadSchema, ...inputCommon }),
  z.strictObject({ kind: z.literal('tool_result'), payload: toolResultPayloadSchema, ...inputCommon }),
  z.strictObject({ kind: z.literal('summary'), payload: summaryPayloadSchema, ...inputCommon }),
  z.strictObject({ kind: z.literal('context_op'), payload: contextOpPayloadSchema, ...inputCommon }),
]) as unknown as z.ZodMiniType<EntryInput>

const storedCommon = {
  id: z.string().check(z.regex(idPattern)),
  threadId: z.string().check(z.regex(idPattern)),
  seq: seqSchema,
  refs: entryRefsSchema,
  createdAt: z.int().check(z.nonnegative()),
  meta: z.exactOptional(entryMetaSchema),
}

/** A complete stored entry (IndexedDB reads, imports). */
export const entrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), payload: messagePayloadSchema, ...storedCommon }),
  z.strictObject({ kind: z.literal('tool_call'), payload: toolCallPayloadSchema, ...storedCommon }),
  z.strictObject({ kind: z.literal('tool_result'), payload: toolResultPayloadSchema, ...storedCommon }),
  z.strictObject({ kind: z.literal('summary'), payload: summaryPayloadSchema, ...storedCommon }),
  z.strictObject({ kind: z.literal('context_op'), payload: contextOpPayloadSchema, ...storedCommon }),
]) as unknown as z.ZodMiniType<Entry>

/** Validates an entry input and applies the per-kind ref rules; throws `InvalidEntryError`. */
export function oracleParseEntryInput(input: unknown): EntryInput {
  const parsed = safeParse(entryInputSchema, readEntryData(input))
  if (!parsed.success) {
    const issue = firstIssue(parsed.error, 'invalid entry')
    throw new InvalidEntryError(issue.path, issue.message, { cause: parsed.error })
  }
  const entry = parsed.data
  if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && entry.refs?.toolCallId === undefined) {
    throw new InvalidEntryError('refs.toolCallId', `a ${entry.kind} needs refs.toolCallId to pair the call with its result`)
  }
  return entry
}

/** Validates a complete stored entry; throws `InvalidEntryError` naming the field. */
export function oracleParseEntry(input: unknown): Entry {
  const parsed = safeParse(entrySchema, readEntryData(input))
  if (!parsed.success) {
    const issue = firstIssue(parsed.error, 'invalid entry')
    throw new InvalidEntryError(issue.path, issue.message, { cause: parsed.error })
  }
  return parsed.data
}
