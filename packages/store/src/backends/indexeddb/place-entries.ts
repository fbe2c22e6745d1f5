import type { Entry } from '@threadlens/core'
import type { TokenCalibration } from '@threadlens/core/calls'
import type { RecallTermsChunk, ThreadRow } from '../../rows'
import type { PlacementPlan, ThreadBackend } from '../../threads/thread-backend'
import { calibrationSamplesOf, calibrationUpdates } from './create-call-log'
import { readEntries } from './entry-reads'
import type { ThreadlensDB } from './threadlens-db'

/** What a placement needs of the backend beside the database. */
export interface PlaceHelpers {
  readRow(threadId: string, operation: string): Promise<ThreadRow>
  /** The recall chunk rows to write for `entries` after `last` (none until the recall code is loaded). */
  termChunks(last: RecallTermsChunk | undefined, entries: readonly Entry[]): RecallTermsChunk[]
}

/**
 * The recall-terms chunk rows after the entries from `fromSeq` on were replaced by `entries`: the
 * chunks from `fromSeq` on go, the one reaching into it is cut short, then the terms of `entries`
 * (when the recall code is loaded; otherwise they are worked out when the index is next read).
 */
async function replacedTermChunks(
  db: ThreadlensDB,
  helpers: PlaceHelpers,
  threadId: string,
  fromSeq: number,
  entries: readonly Entry[],
): Promise<RecallTermsChunk[]> {
  const range = db.recallTerms.where('[threadId+firstSeq]')
  const [before] = await Promise.all([
    range.between([threadId, 0], [threadId, fromSeq], true, false).last(),
    range.between([threadId, fromSeq], [threadId, Number.MAX_SAFE_INTEGER], true, true).delete(),
  ])
  const readable = before !== undefined && Array.isArray(before.ids) && Array.isArray(before.terms) && before.ids.length === before.terms.length
  if (before !== undefined && !readable) await db.recallTerms.delete([threadId, before.firstSeq])
  const reaches = readable && before.firstSeq + before.ids.length > fromSeq
  const last = !readable
    ? undefined
    : reaches
      ? { ...before, ids: before.ids.slice(0, fromSeq - before.firstSeq), terms: before.terms.slice(0, fromSeq - before.firstSeq) }
      : before
  const chunks = helpers.termChunks(last, entries)
  // A chunk cut short is written even when no terms follow it: what it held past `fromSeq` is stale.
  if (reaches && last !== undefined && !chunks.some((chunk) => chunk.firstSeq === last.firstSeq)) chunks.unshift(last)
  return chunks
}

/**
 * `ThreadBackend.place` in IndexedDB: one transaction reads the row and every entry, plans, and
 * writes the entries whose seq changed (or that are new), their recall terms, the row (one rebase
 * more when stored entries moved: other tabs' subscriptions see it on the row) and the
 * calibrations the added entries' call records bring. With nothing moved it is this tab's append.
 */
export async function placeEntries(
  db: ThreadlensDB,
  helpers: PlaceHelpers,
  ...[threadId, operation, time, plan, onCommitted]: Parameters<ThreadBackend['place']>
): Promise<PlacementPlan> {
  let written: readonly TokenCalibration[] = []
  const placement = await db.run(operation, () =>
    db.transaction('rw', [db.threads, db.entries, db.recallTerms, db.calibrations, db.meta], async () => {
      const [, row] = await Promise.all([db.checkSentinel(operation), helpers.readRow(threadId, operation)])
      const placement = plan(row, await readEntries(db, threadId, 0, row.lastSeq, operation))
      if (placement.added.length === 0 && placement.moved === 0) return placement
      const changed = placement.entries.slice(placement.changedFrom - placement.fromSeq)
      const [calibrations, chunks] = await Promise.all([
        calibrationUpdates(db, calibrationSamplesOf(placement.added.map((entry) => entry.meta)), time),
        replacedTermChunks(db, helpers, threadId, placement.changedFrom, changed),
      ])
      if (placement.moved === 0) {
        if (onCommitted !== undefined) db.onCommitted(() => onCommitted(placement.added))
        db.markOwnAppend(threadId, placement.row.lastSeq)
      }
      await Promise.all([
        db.entries.bulkPut([...changed]),
        db.recallTerms.bulkPut(chunks),
        db.threads.put(placement.row),
        ...calibrations.map((calibration) => db.calibrations.put(calibration)),
      ])
      written = calibrations
      return placement
    }),
  )
  // Only once committed: an aborted transaction wrote nothing.
  for (const calibration of written) db.recentCalibrations.set(`${calibration.model}\u0000${calibration.counter}`, calibration)
  return placement
}
