import { type Entry } from '@threadlens/core'
import { threadId as toThreadId } from '@threadlens/core/internal'
import type { ThreadRecord, ThreadRow } from '../../rows'
import type { ThreadlensDB } from './threadlens-db'
import { afterNextPaint } from '../../after-next-paint'
import { readEntries } from './entry-reads'
import type { SubscribeOptions, ThreadStoreEvent, ThreadStoreListener } from '../../threads/thread-store'

// long: one subscription's state (seen, stopped, the read queue) shared by its handlers; split up, they would pass it around.
/**
 * Live events for one thread. The thread's row is read again after every commit that wrote it, in
 * this tab or another (Dexie's change signal, which reaches other tabs through a BroadcastChannel);
 * an aborted transaction never signals. New entries are then read by seq range, so each
 * committed entry is delivered once, in order, even when several commits arrive together.
 * `delivered` says up to which seq the listener already has entries (this tab's own commits,
 * handed over at once): those are not read again. With `records`, the row's record goes out when
 * its rev is new, from the same read.
 */
export function subscribeThread(
  db: ThreadlensDB,
  rawThreadId: string,
  listener: ThreadStoreListener,
  options: SubscribeOptions = {},
  onRead: (entries: readonly Entry[]) => void = () => {},
  delivered: () => number | undefined = () => undefined,
  toRecord: (row: ThreadRow) => ThreadRecord = (row) => row,
): () => void {
  const threadId = toThreadId(rawThreadId)
  let seen: number | undefined = options.afterSeq
  // The row's rebase count last read: a new one means a placement moved stored entries.
  let rebases: number | undefined
  let stopped = false
  let queue: Promise<void> = Promise.resolve()

  const emit = (event: ThreadStoreEvent): void => {
    if (!stopped) listener(event)
  }

  const records = options.records === true ? recordUpdates((record) => emit({ type: 'record-update', threadId, record }), toRecord) : undefined

  const handle = async (row: ThreadRow | undefined): Promise<void> => {
    if (stopped) return
    if (row === undefined) {
      if (seen !== undefined && seen >= 0) emit({ type: 'thread-delete', threadId })
      seen = -1
      rebases = undefined
      records?.(undefined)
      return
    }
    records?.(row)
    if (seen === undefined) {
      seen = row.lastSeq
      rebases = row.rebases
      return
    }
    // Started from `afterSeq`: rebases before this first read are not known to be new.
    if (rebases === undefined) rebases = row.rebases
    else if (row.rebases !== rebases) {
      // One placement since the last read: entries changed from its seq (and any not yet delivered); several: from any of theirs.
      const fromSeq = row.rebases === rebases + 1 ? Math.max(0, Math.min(row.rebaseFromSeq, seen + 1)) : 0
      rebases = row.rebases
      seen = row.lastSeq
      emit({ type: 'thread-rebase', threadId, fromSeq, lastSeq: row.lastSeq })
      return
    }
    if (row.lastSeq <= seen) return
    // Entries this tab committed reached the listener with the commit: read only what they left out.
    const from = Math.max(seen, delivered() ?? -1) + 1
    if (from > row.lastSeq) {
      seen = row.lastSeq
      return
    }
    const entries: Entry[] = await db.transaction('r', [db.entries, db.meta], async () => {
      await db.checkSentinel('subscribe')
      return readEntries(db, threadId, from, row.lastSeq, 'subscribe')
    })
    seen = row.lastSeq
    if (!stopped) onRead(entries)
    if (entries.length > 0) emit({ type: 'entry-append', threadId, entries })
  }

  const fail = (error: unknown): void => {
    emit({ type: 'storage-fail', threadId, error: db.toError(error, 'subscribe') })
    stop()
  }

  // The thread's row and the sentinel, in one transaction (alone, each read would be a transaction
  // of its own, one after the other).
  const readRow = () =>
    db.transaction('r', [db.threads, db.meta], async () => {
      const [, row] = await Promise.all([db.checkSentinel('subscribe'), db.threads.get(threadId)])
      return row
    })
  const refresh = (): void => {
    queue = queue
      .then(async () => {
        if (stopped) return
        if (db.status.state === 'stopped') throw db.stoppedError('subscribe')
        await handle(await readRow())
      })
      .catch(fail)
  }
  // After a commit that wrote the row (or the sentinel), in this tab or another, the row is read
  // again, once the page has painted: the frame showing a change should not wait for a read. An
  // append of this tab whose entries this listener already got at the commit needs no read at all
  // (appends keep the record's rev, so there is no record to send either).
  let pending = false
  const stopWatching = db.dexieRuntime.watchRows(db.name, [{ table: 'threads', keys: [threadId] }, { table: 'meta' }], (changed) => {
    if (pending || stopped) return
    const own = db.ownAppendIn(changed)
    if (own !== undefined && own.threadId === threadId && (delivered() ?? -1) >= own.lastSeq) return
    pending = true
    afterNextPaint(() => {
      pending = false
      refresh()
    })
  })
  refresh()
  const stopStatus = db.subscribeStatus((status) => {
    if (status.state === 'stopped') fail(db.stoppedError('subscribe'))
  })

  function stop(): void {
    if (stopped) return
    stopped = true
    stopWatching()
    stopStatus()
  }
  return stop
}

/** Sends the record when its rev is new (a rename or update; appends keep it); `undefined` (deleted) starts over. */
function recordUpdates(send: (record: ThreadRecord) => void, toRecord: (row: ThreadRow) => ThreadRecord): (row: ThreadRow | undefined) => void {
  // The rev last sent, -1 for none; rows from before revs read as rev 0.
  let sentRev = -1
  return (row) => {
    if (row === undefined) {
      sentRev = -1
      return
    }
    const rev = row.rev ?? 0
    if (rev === sentRev) return
    sentRev = rev
    send(toRecord(row))
  }
}
