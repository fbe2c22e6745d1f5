import { RevisionConflictError, type JsonObject } from '@threadlens/core'
import { jsonObjectSchema, utf8Length, type ThreadId } from '@threadlens/core/internal'
import { z } from 'zod/mini'
import { toThreadRecord, type ThreadRecord, type ThreadRow } from '../rows'
import { parseOptions } from '../parse-options'
import { emptyThreadFacts } from '@threadlens/core/internal'

/** The fields of a thread record the app sets. */
export interface ThreadRecordFields {
  readonly title: string
  readonly metadata: JsonObject
  readonly tags: readonly string[]
  readonly model: string | null
  readonly policyName: string | null
}

/** What `update` changes; a field left out stays as it is. */
export interface ThreadRecordChanges {
  /** At most 10,000 characters. */
  readonly title?: string
  /** Replaces the tags: at most 100 strings of 1–256 characters; duplicates are dropped, order kept. */
  readonly tags?: readonly string[]
  /** At most 256 characters; `null` clears it. */
  readonly model?: string | null
  /** At most 256 characters; `null` clears it. */
  readonly policyName?: string | null
  /** Replaces the metadata (plain JSON, as entries). */
  readonly metadata?: JsonObject
}

export interface UpdateThreadOptions {
  /**
   * Update only if the record is still at this revision; otherwise `RevisionConflictError`
   * and nothing is written. Default: no check (last writer wins).
   */
  readonly expectedRev?: number
}

/** The most thread metadata may take, as JSON: it goes on the export's header line, within the import line limit. */
export const maxMetadataBytes = 1024 * 1024

export const titleSchema = z.string().check(z.maxLength(10_000))
const tagsSchema = z.pipe(z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.maxLength(100)), z.transform((tags) => [...new Set(tags)]))
const nameSchema = z.nullable(z.string().check(z.minLength(1), z.maxLength(256)))

export const recordFieldsShape = {
  title: z.exactOptional(titleSchema),
  tags: z.exactOptional(tagsSchema),
  model: z.exactOptional(nameSchema),
  policyName: z.exactOptional(nameSchema),
  metadata: z.exactOptional(
    jsonObjectSchema.check(
      z.refine(
        (metadata) => utf8Length(JSON.stringify(metadata)) <= maxMetadataBytes,
        `metadata is limited to ${maxMetadataBytes} bytes of JSON (it is written on the export's first line)`,
      ),
    ),
  ),
}


const changesSchema = z.strictObject(recordFieldsShape)
const updateOptionsSchema = z.strictObject({ expectedRev: z.exactOptional(z.int().check(z.nonnegative())) })

export type ParsedRecordFields = Partial<{ -readonly [K in keyof ThreadRecordFields]: ThreadRecordFields[K] }>

export function parseRecordChanges(changes: ThreadRecordChanges): ParsedRecordFields {
  return parseOptions(changesSchema, changes, 'thread changes') as ParsedRecordFields
}

export function parseUpdateOptions(options: UpdateThreadOptions | undefined): UpdateThreadOptions {
  return parseOptions(updateOptionsSchema, options ?? {}, 'update options')
}

export function newThreadRow(id: ThreadId, fields: Partial<ThreadRecordFields>, now: number): ThreadRow {
  return {
    id,
    title: fields.title ?? '',
    createdAt: now,
    updatedAt: now,
    entryCount: 0,
    lastSeq: -1,
    parent: null,
    metadata: fields.metadata ?? {},
    tags: fields.tags ?? [],
    model: fields.model ?? null,
    policyName: fields.policyName ?? null,
    rev: 0,
    facts: emptyThreadFacts,
    bytes: 0,
    rebases: 0,
    rebaseFromSeq: 0,
  }
}

/** The fields a fork or an export carries over from a record. */
export function recordFieldsOf(record: ThreadRecord): ThreadRecordFields {
  return { title: record.title, metadata: record.metadata, tags: record.tags, model: record.model, policyName: record.policyName }
}

/**
 * The row after `changes`, one revision on, or `RevisionConflictError` when `expectedRev`
 * is stale. Pure: both stores run it inside their write.
 */
export function updatedRow(row: ThreadRow, changes: ParsedRecordFields, options: UpdateThreadOptions, now: number): ThreadRow {
  if (options.expectedRev !== undefined && options.expectedRev !== row.rev) {
    throw new RevisionConflictError({ kind: 'thread-record', threadId: row.id }, options.expectedRev, row.rev, toThreadRecord(row))
  }
  return { ...row, ...changes, rev: row.rev + 1, updatedAt: Math.max(row.updatedAt, now) }
}
