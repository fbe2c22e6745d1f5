import type { ThreadRecord, ThreadRow } from '../../rows'
import type { ThreadlensDB } from './threadlens-db'
import type { ThreadListListener } from '../../threads/thread-store'

/**
 * The live thread list. Dexie's `liveQuery` re-runs the query after every commit that touched the
 * `threads` table, in this tab or another (Dexie tells other tabs through a BroadcastChannel), so
 * apps need no channel of their own.
 */
export function subscribeThreadList(db: ThreadlensDB, listener: ThreadListListener, toRecord: (row: ThreadRow) => ThreadRecord): () => void {
  let stopped = false
  const observable = db.dexieRuntime.liveQuery(() => {
    if (db.status.state === 'stopped') throw db.stoppedError('subscribeList')
    // One transaction, both reads at once (alone, each read is a transaction of its own, in turn).
    return db.transaction('r', [db.threads, db.meta], async () => {
      const [, rows] = await Promise.all([db.checkSentinel('subscribeList'), db.threads.orderBy('updatedAt').reverse().toArray()])
      return rows.map(toRecord)
    })
  })
  const subscription = observable.subscribe({
    next: (threads) => {
      if (!stopped) listener({ type: 'list-update', threads })
    },
    error: (error: unknown) => {
      if (stopped) return
      listener({ type: 'storage-fail', error: db.toError(error, 'subscribeList') })
      stop()
    },
  })
  function stop(): void {
    stopped = true
    subscription.unsubscribe()
  }
  return stop
}
