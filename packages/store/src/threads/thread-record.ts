import { RevisionConflictError, type JsonObject } from '@threadlens/core'
// Repeated on purpose: packages/store/src/rows.ts imports the same readers of core (an import list, not logic).
import {
  array,
  flag,
  int,
  jsonObject,
  nullable,
  object,
  optional,
  string,
  utf8Length,
  type Reader,
  type Shape,
  type ThreadId,
} from '@threadlens/core/internal'
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

export const titleReader = string({ max: 10_000 })
const tagList = array(string({ min: 1, max: 256 }), 100)
/** Tags with duplicates dropped, the first of each kept in place. */
const tagsReader: Reader<string[]> = (value, at) => [...new Set(tagList(value, at))]
const nameReader = nullable(string({ min: 1, max: 256 }))
const metadataReader: Reader<JsonObject> = (value, at) => {
  const metadata = jsonObject(value, at)
  if (utf8Length(JSON.stringify(metadata)) > maxMetadataBytes)
    flag(at, `metadata is limited to ${maxMetadataBytes} bytes of JSON (it is written on the export's first line)`)
  return metadata
}

/** The readers of the record fields an app may set (`create`, `update`, an import's header). */
export const recordFieldReaders: Shape<ParsedRecordFields> = {
  title: optional(titleReader),
  tags: optional(tagsReader),
  model: optional(nameReader),
  policyName: optional(nameReader),
  metadata: optional(metadataReader),
}

export const changesReader = object<ParsedRecordFields>(recordFieldReaders)
export const updateOptionsReader = object<UpdateThreadOptions>({ expectedRev: optional(int({ min: 0 })) })

export type ParsedRecordFields = Partial<{ -readonly [K in keyof ThreadRecordFields]: ThreadRecordFields[K] }>

export function parseRecordChanges(changes: ThreadRecordChanges): ParsedRecordFields {
  return parseOptions(changesReader, changes, 'thread changes')
}

export function parseUpdateOptions(options: UpdateThreadOptions | undefined): UpdateThreadOptions {
  return parseOptions(updateOptionsReader, options ?? {}, 'update options')
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
