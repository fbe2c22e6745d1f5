// What a crash mid-write looks like: a transaction that writes an entry and the thread row, then
// aborts. Used by the multi-tab harness page and the tab worker; it must leave no trace.
import type { ThreadlensDB } from '../backends/indexeddb/threadlens-db'

export async function abortedAppend(database: ThreadlensDB, threadId: string): Promise<'aborted'> {
  await database
    .transaction('rw', [database.threads, database.entries], async () => {
      const row = await database.threads.get(threadId)
      if (row === undefined) throw new Error('no thread')
      const seq = row.lastSeq + 1
      await database.entries.add({
        id: `aborted-${seq}`,
        threadId: row.id,
        seq,
        kind: 'message',
        payload: { role: 'user', content: 'ABORTED' },
        refs: {},
        createdAt: 1,
      } as never)
      await database.threads.put({ ...row, lastSeq: seq, entryCount: seq + 1 })
      throw new Error('abort on purpose')
    })
    .catch(() => undefined)
  return 'aborted'
}
