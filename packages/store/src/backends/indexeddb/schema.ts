import type { Entry } from '@threadlens/core'
import type { Dexie, Transaction } from 'dexie'
import { emptyThreadFacts, foldThreadFacts } from '@threadlens/core/internal'

/** The schema version this code writes. Bump it with a new `version(n)` below, never by editing an old one. */
export const schemaVersion = 5

/**
 * Version 1: entries keyed `[threadId+seq]` (gapless per thread), tool calls and results found by
 * `[threadId+kind+refs.toolCallId]`. Kept as it shipped: the upgrade test opens a database with it.
 */
export const schemaV1 = {
  threads: 'id, updatedAt',
  entries: '[threadId+seq], [threadId+kind+refs.toolCallId]',
  memory: 'id',
  meta: 'key',
} as const

/**
 * Version 2: adds `[threadId+refs.callId]` (a model call's members, for windowed loads) and the
 * per-thread `facts` on thread rows (newest reset, summary, user message, pins).
 */
export const schemaV2 = {
  ...schemaV1,
  entries: '[threadId+seq], [threadId+kind+refs.toolCallId], [threadId+refs.callId]',
} as const

/**
 * Version 3: the call log. `attempts` holds the failed, retried and aborted attempts of model calls
 * (keyed `[threadId+id]`, deleted with their thread); `calibrations` one row per model and counter.
 * Both are new tables: nothing stored before needs rewriting.
 */
export const schemaV3 = {
  ...schemaV2,
  attempts: '[threadId+id]',
  calibrations: '[model+counter]',
} as const

/**
 * Version 4: images and files. `attachments` holds each one's bytes once (a Blob keyed by
 * `sha256-<hex>` of the bytes, with media type, size and pixel size); `attachmentRefs` which threads
 * use it (`[attachmentId+threadId]`, indexed by `threadId`), so deleting a thread deletes the bytes
 * no other thread uses. New tables only: nothing stored before needs rewriting.
 */
export const schemaV4 = {
  ...schemaV3,
  attachments: 'id',
  attachmentRefs: '[attachmentId+threadId], threadId',
} as const

/**
 * Version 5: recall terms. `recallTerms` holds the terms full-text recall indexes of each entry, in
 * chunks of consecutive entries keyed `[threadId+firstSeq]`, written in the same transaction as the
 * entries and deleted with their thread, so a thread's recall index is restored without reading and
 * tokenizing every entry again. A new table: entries stored before get their terms when their
 * thread's index is first read (`threads.recallIndex`).
 */
export const schemaV5 = {
  ...schemaV4,
  recallTerms: '[threadId+firstSeq]',
} as const

/** Computes `facts` for every thread written by version 1 (one thread's entries at a time). */
async function upgradeToV2(transaction: Transaction): Promise<void> {
  const threads = transaction.table('threads')
  const entries = transaction.table('entries')
  const ids = (await threads.toCollection().primaryKeys()) as string[]
  for (const id of ids) {
    const row = (await threads.get(id)) as Record<string, unknown> | undefined
    if (row === undefined) continue
    const stored = (await entries.where('[threadId+seq]').between([id, 0], [id, Number.MAX_SAFE_INTEGER], true, true).toArray()) as Entry[]
    await threads.put({ ...row, facts: foldThreadFacts(emptyThreadFacts, stored) })
  }
}

export function defineSchema(db: Dexie): void {
  db.version(1).stores(schemaV1)
  db.version(2).stores(schemaV2).upgrade(upgradeToV2)
  db.version(3).stores(schemaV3)
  db.version(4).stores(schemaV4)
  db.version(5).stores(schemaV5)
}
