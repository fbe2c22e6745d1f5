import { type JsonObject } from '@threadlens/core'
// Repeated on purpose: packages/store/src/threads/thread-record.ts imports the same readers of core (an import list, not logic).
import {
  array,
  flag,
  int,
  jsonObject,
  nullable,
  object,
  oneOf,
  string,
  threadId as toThreadId,
  withDefault,
  type ForkInfo,
  type Reader,
  type Shape,
  type ThreadFacts,
  type ThreadId,
} from '@threadlens/core/internal'
import { threadFactsReader } from './threads/thread-facts'

/** A stored thread as the app sees it: everything but its entries. */
export interface ThreadRecord {
  readonly id: ThreadId
  readonly title: string
  /** Milliseconds since the epoch. */
  readonly createdAt: number
  /** Changes on every append. */
  readonly updatedAt: number
  readonly entryCount: number
  /** Seq of the newest entry, -1 while the thread is empty. */
  readonly lastSeq: number
  /** Set on forks: the thread and the last seq they copied. `null` otherwise. */
  readonly parent: ForkInfo | null
  /** Free-form JSON of the application. */
  readonly metadata: JsonObject
  /** Labels of the application, unique, in the order given. Default: `[]`. */
  readonly tags: readonly string[]
  /** The model the thread talks to, if the app records it. Default: `null`. */
  readonly model: string | null
  /** The name of the policy (preset) the thread uses, if the app records it. Default: `null`. */
  readonly policyName: string | null
  /**
   * The record's revision: 0 at creation, +1 on every `update`/`rename` (appends do not change it).
   * Pass it as `expectedRev` to update only if nobody else did in between.
   */
  readonly rev: number
}

/** The `threads` table row: the record plus the facts windowed loads need. */
export interface ThreadRow extends ThreadRecord {
  readonly facts: ThreadFacts
  /** UTF-8 bytes the entries take in an export (each line and its newline), kept with every append. */
  readonly bytes: number
  /**
   * How many placements (`placeSynced`) moved stored entries of this thread: subscribers in every
   * tab compare it to tell a rebase from an append. 0 for rows written before it was kept.
   */
  readonly rebases: number
  /** The seq from which the latest of those placements changed the entries (0 while `rebases` is 0). */
  readonly rebaseFromSeq: number
}

const idReader = string({ pattern: /^[A-Za-z0-9_.:-]{1,128}$/ })
const timeReader = int({ min: 0 })
/** A thread id, checked (the pattern of entry ids) and typed. */
export const threadIdReader: Reader<ThreadId> = (value, at) => toThreadId(idReader(value, at))

export const forkInfoReader: Reader<ForkInfo> = object<ForkInfo>({ threadId: threadIdReader, atSeq: int({ min: 0 }) })

const recordShape: Shape<ThreadRecord> = {
  id: threadIdReader,
  title: string({ max: 10_000 }),
  createdAt: timeReader,
  updatedAt: timeReader,
  entryCount: int({ min: 0 }),
  lastSeq: int({ min: -1 }),
  parent: nullable(forkInfoReader),
  metadata: jsonObject,
  // Rows written before records had these read with the defaults.
  tags: withDefault(array(string()), () => []),
  model: withDefault(nullable(string()), () => null),
  policyName: withDefault(nullable(string()), () => null),
  rev: withDefault(int({ min: 0 }), () => 0),
}

export const threadRowReader: Reader<ThreadRow> = object<ThreadRow>(
  {
    ...recordShape,
    facts: threadFactsReader,
    // Rows written before `bytes` was kept read as 0: their size counts from the next append on.
    bytes: withDefault(int({ min: 0 }), () => 0),
    rebases: withDefault(int({ min: 0 }), () => 0),
    rebaseFromSeq: withDefault(int({ min: 0 }), () => 0),
  },
  (row, at) => {
    if (row.entryCount !== row.lastSeq + 1) flag({ parent: at, key: 'entryCount' }, 'entryCount must be lastSeq + 1')
  },
)

/** The row that tells this database apart from one re-created under the app. */
export interface SentinelRow {
  readonly key: 'database'
  /** Random, written once when the database is created. */
  readonly instanceId: string
  readonly createdAt: number
}

export const sentinelKey = 'database'

export const sentinelRowReader: Reader<SentinelRow> = object<SentinelRow>({
  key: oneOf([sentinelKey]),
  instanceId: string({ min: 1 }),
  createdAt: timeReader,
})

/** Rows of the `meta` table. */
export type MetaRow = SentinelRow

export function toThreadRecord(row: ThreadRow): ThreadRecord {
  const { facts: _facts, bytes: _bytes, rebases: _rebases, rebaseFromSeq: _rebaseFromSeq, ...record } = row
  return record
}

/** The `attachments` table row: an image's or file's bytes, stored once. */
export interface AttachmentRow {
  /** `sha256-<64 hex digits>` of the bytes. */
  readonly id: string
  readonly blob: Blob
  readonly mediaType: string
  readonly bytes: number
  readonly width?: number
  readonly height?: number
  /** Milliseconds since the epoch, when first stored. */
  readonly createdAt: number
}

/** The `attachmentRefs` table row: a thread uses an attachment. */
export interface AttachmentRefRow {
  readonly attachmentId: string
  readonly threadId: string
}

/**
 * The `recallTerms` table row: what recall indexes of consecutive entries of a thread from
 * `firstSeq`, entry by entry (`entryRecallTerms` of core): the entry's id and its terms joined by
 * spaces (no term holds one), `null` for an entry recall does not search. `version` is the way
 * the terms were worked out (`RECALL_TERMS_VERSION`).
 */
export interface RecallTermsChunk {
  readonly threadId: string
  readonly firstSeq: number
  readonly ids: readonly string[]
  readonly terms: readonly (string | null)[]
  readonly version: number
}
