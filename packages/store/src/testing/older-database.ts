// The upgrade tests' starting point: a database as an older schema version left it (the meta row,
// one thread of `entries` with its facts, and whatever `more` writes in the same transaction).
import type { Entry } from '@threadlens/core'
import { emptyThreadFacts, foldThreadFacts } from '@threadlens/core/internal'
import { Dexie } from 'dexie'
import { expect } from 'vitest'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import type { ThreadStore } from '../threads/thread-store'
import { uniqueName } from './test-database'

/**
 * Writes the older database, opens it with today's schema and checks that what it held came
 * through: the thread's entries as written and the database's instance id.
 */
export async function upgradeFrom(
  version: number,
  schema: Record<string, string>,
  entries: readonly Entry[],
  more?: (raw: Dexie) => Promise<unknown>,
): Promise<{ db: ThreadlensDB; threads: ThreadStore; threadId: string }> {
  const name = uniqueName(`upgrade-from-v${version}`)
  const threadId = (entries[0] as Entry).threadId
  const raw = new Dexie(name)
  raw.version(version).stores(schema)
  await raw.open()
  await raw.transaction('rw', raw.tables, async () => {
    await raw.table('meta').put({ key: 'database', instanceId: `v${version}-instance`, createdAt: 1 })
    await raw.table('threads').put({
      id: threadId,
      title: `v${version}`,
      createdAt: 1,
      updatedAt: (entries.at(-1) as Entry).createdAt,
      entryCount: entries.length,
      lastSeq: entries.length - 1,
      parent: null,
      metadata: {},
      facts: foldThreadFacts(emptyThreadFacts, entries),
    })
    await raw.table('entries').bulkAdd([...entries])
    await more?.(raw)
  })
  raw.close()

  const db = new ThreadlensDB({ name })
  const threads = createThreadStore(db)
  expect((await threads.load(threadId)).entries).toEqual(entries)
  expect((await db.meta.get('database'))?.instanceId).toBe(`v${version}-instance`)
  return { db, threads, threadId }
}
