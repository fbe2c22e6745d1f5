import type { ThreadRecord, ThreadRow } from '../../rows'
import { liveRead } from './live-read'
import type { ThreadlensDB } from './threadlens-db'
import type { ThreadListListener } from '../../threads/thread-store'

/**
 * The live thread list. Dexie's `liveQuery` re-runs the query after every commit that touched the
 * `threads` table, in this tab or another (Dexie tells other tabs through a BroadcastChannel), so
 * apps need no channel of their own.
 */
export function subscribeThreadList(db: ThreadlensDB, listener: ThreadListListener, toRecord: (row: ThreadRow) => ThreadRecord): () => void {
  return liveRead(
    db,
    'subscribeList',
    // One transaction, both reads at once (alone, each read is a transaction of its own, in turn).
    () =>
      db.transaction('r', [db.threads, db.meta], async () => {
        const [, rows] = await Promise.all([db.checkSentinel('subscribeList'), db.threads.orderBy('updatedAt').reverse().toArray()])
        return rows.map(toRecord)
      }),
    (threads) => listener({ type: 'list-update', threads }),
    (error) => listener({ type: 'storage-fail', error }),
  )
}
