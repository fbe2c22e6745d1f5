import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { SchemaUpgradeError, StorageResetError } from '../../errors'
import { createMemoryStore } from './create-memory-store'
import { createThreadStore } from './create-thread-store'
import { emptyThreadFacts, foldThreadFacts } from '@threadlens/core/internal'
import { uniqueName } from '../../testing/test-database'
import { version1Entries, version1ThreadId, writeVersion1Database } from './fixtures/version-1-database'
import { schemaV5, schemaVersion } from './schema'
import { ThreadlensDB } from './threadlens-db'

const user = (content: string) => ({ kind: 'message', payload: { role: 'user', content } }) as const

describe('schema', () => {
  it('creates version 2 with the sentinel and the indexes windowed loads use', async () => {
    const db = new ThreadlensDB({ name: uniqueName('schema') })
    await db.open()
    expect(db.verno).toBe(schemaVersion)
    expect(db.entries.schema.primKey.keyPath).toEqual(['threadId', 'seq'])
    expect(db.entries.schema.indexes.map((index) => index.name).sort()).toEqual(['[threadId+kind+refs.toolCallId]', '[threadId+refs.callId]'])
    expect(await db.meta.get('database')).toMatchObject({ key: 'database', instanceId: expect.any(String) })
    db.close()
  })

  it('upgrades a version 1 database to version 2 without losing anything', async () => {
    const name = uniqueName('upgrade')
    await writeVersion1Database(name)
    const db = new ThreadlensDB({ name })
    const threads = createThreadStore(db)
    const thread = await threads.load(version1ThreadId)
    expect(thread.entries).toEqual(version1Entries)
    expect(await threads.get(version1ThreadId)).toMatchObject({ title: 'Oslo', entryCount: 7, lastSeq: 6, metadata: { source: 'v1' } })
    // The upgrade computed the facts version 1 did not keep.
    const row = await db.threads.get(version1ThreadId)
    expect(row?.facts).toEqual(foldThreadFacts(emptyThreadFacts, version1Entries))
    expect(row?.facts).toEqual({ resetSeq: -1, lastUserSeq: 5, summary: { seq: 4, fromSeq: 0, toSeq: 2 }, pinnedSeqs: [3, 5] })
    // The new index answers queries over old rows.
    expect(await db.entries.where('[threadId+refs.callId]').equals([version1ThreadId, 'c1']).primaryKeys()).toEqual([
      [version1ThreadId, 1],
      [version1ThreadId, 2],
    ])
    // Appends go on from the right seq, and memory survived.
    expect((await threads.append(version1ThreadId, user('next'))).seq).toBe(7)
    expect((await createMemoryStore(db).get('agent')).spaces.world.data).toEqual({ city: 'Oslo' })
    // The sentinel of version 1 is kept, so the upgrade is not mistaken for a reset.
    expect((await db.meta.get('database'))?.instanceId).toBe('v1-instance')
    db.close()
  })
})

/** This tab: a thread store over a new database, with one thread of user messages. */
async function thisTab(label: string, ...contents: string[]) {
  const name = uniqueName(label)
  const db = new ThreadlensDB({ name })
  const threads = createThreadStore(db)
  const { id } = await threads.create()
  await threads.appendMany(id, contents.map(user))
  return { name, db, threads, id }
}

/** What a newer deploy does in another tab: opens the database with the next schema version. */
async function openNewerSchema(name: string): Promise<Dexie> {
  const newer = new Dexie(name)
  newer.version(schemaVersion + 1).stores({ ...schemaV5, threads: 'id, updatedAt, title' })
  await newer.open()
  return newer
}

describe('when the database changes under this tab', () => {
  it('stops writing with SchemaUpgradeError when another tab upgrades the schema', async () => {
    const { name, db, threads, id } = await thisTab('upgraded-elsewhere', 'before')

    const newer = await openNewerSchema(name)
    expect(db.status).toMatchObject({ state: 'stopped', reason: 'upgraded-elsewhere', otherVersion: schemaVersion + 1 })

    const error = await threads.append(id, user('after')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SchemaUpgradeError)
    expect(error).toMatchObject({ reason: 'upgraded-elsewhere', knownVersion: schemaVersion, otherVersion: schemaVersion + 1, code: 'upgrade' })
    expect((error as Error).message).toMatch(/Reload this tab/)
    await expect(threads.list()).rejects.toBeInstanceOf(SchemaUpgradeError)
    // The other tab's data is untouched: one entry, written before the upgrade.
    expect(await newer.table('entries').count()).toBe(1)
    newer.close()
  })

  it('refuses a database newer than this code', async () => {
    const name = uniqueName('newer-on-disk')
    const newer = await openNewerSchema(name)
    newer.close()
    const threads = createThreadStore(new ThreadlensDB({ name }))
    await expect(threads.create()).rejects.toMatchObject({ name: 'SchemaUpgradeError', reason: 'database-newer', otherVersion: schemaVersion + 1 })
  })

  it('stops with StorageResetError when another tab erases everything', async () => {
    const { name, threads, id } = await thisTab('erased-elsewhere', 'x')
    const otherTab = createThreadStore(new ThreadlensDB({ name }))
    await otherTab.list()
    await otherTab.eraseAll()
    const error = await threads.append(id, user('y')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StorageResetError)
    expect(error).toMatchObject({ reason: 'erased-elsewhere', code: 'reset' })
    // The tab that erased carries on with a fresh database.
    expect(await otherTab.list()).toEqual([])
  })

  it('never restarts a thread at seq 0 on a database re-created under the app', async () => {
    const { name, db, threads, id } = await thisTab('cleared', 'a', 'b')
    // What a wipe leaves behind once Dexie silently re-creates the database: a new sentinel, no rows.
    const raw = new Dexie(name)
    raw.version(schemaVersion).stores(schemaV5)
    await raw.open()
    await raw.transaction('rw', raw.tables, async () => {
      for (const table of raw.tables) await table.clear()
      await raw.table('meta').put({ key: 'database', instanceId: 'someone-else', createdAt: 1 })
    })
    raw.close()

    const error = await threads.append(id, user('c')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StorageResetError)
    expect(error).toMatchObject({ reason: 'cleared' })
    expect((error as Error).message).toMatch(/Reload the page/)
    await expect(threads.list()).rejects.toBeInstanceOf(StorageResetError)
    expect(db.status).toMatchObject({ state: 'stopped', reason: 'cleared' })

    // The app may accept the loss explicitly and go on with the database as it is now.
    await db.acknowledgeReset()
    expect(await threads.list()).toEqual([])
    const fresh = await threads.create()
    expect((await threads.append(fresh.id, user('new start'))).seq).toBe(0)
  })

  it('fails fast with SchemaUpgradeError while its own upgrade is blocked by another tab, then goes on', async () => {
    const name = uniqueName('blocked')
    // An old tab holding version 1 open and ignoring requests to close.
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 10)
      request.onupgradeneeded = () => {
        for (const [table, spec] of Object.entries({ threads: 'id', entries: '', memory: 'id', meta: 'key' })) {
          request.result.createObjectStore(table, spec === '' ? { keyPath: ['threadId', 'seq'] } : { keyPath: spec })
        }
      }
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const db = new ThreadlensDB({ name })
    const threads = createThreadStore(db)
    const statuses: string[] = []
    db.subscribeStatus((status) => statuses.push(status.state))
    const opening = db.open()
    await expect.poll(() => db.status.state).toBe('blocked')
    const error = await threads.list().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SchemaUpgradeError)
    expect(error).toMatchObject({ reason: 'blocked', code: 'blocked' })
    expect((error as Error).message).toMatch(/Close or reload the other tabs/)
    old.close()
    await opening
    expect(db.status.state).toBe('working')
    expect(statuses).toEqual(['blocked', 'working'])
    expect(await threads.list()).toEqual([])
  })
})
