import { describe, expect, it } from 'vitest'
import { SchemaUpgradeError } from '../../errors'
import { openTab } from '../../testing/tab-protocol'
import { createThreadStore } from './create-thread-store'
import type { ThreadStoreEvent } from '../../threads/thread-store'
import { schemaVersion } from './schema'
import { ThreadlensDB } from './threadlens-db'

describe('a schema upgrade from another tab (real Chromium, a worker as the newer tab)', () => {
  it('closes this connection so the upgrade goes through, then refuses writes with a clear error', async () => {
    const name = `threadlens-browser-upgrade-${crypto.randomUUID()}`
    const db = new ThreadlensDB({ name })
    const threads = createThreadStore(db)
    const { id } = await threads.create()
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'before' } })
    const events: ThreadStoreEvent[] = []
    threads.subscribe(id, (event) => events.push(event))

    const newerTab = openTab()
    // Resolves only once this tab has let go of the database: the upgrade is not blocked.
    expect(await newerTab.send({ type: 'upgrade', name, version: schemaVersion + 1 })).toBe(schemaVersion + 1)

    expect(db.status).toEqual({ state: 'stopped', reason: 'upgraded-elsewhere', otherVersion: schemaVersion + 1 })
    const error = await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'after' } }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SchemaUpgradeError)
    expect((error as Error).message).toContain(`Another tab upgraded the threadlens database to version ${schemaVersion + 1}`)
    await expect.poll(() => events.find((event) => event.type === 'storage-fail')).toMatchObject({ error: { name: 'SchemaUpgradeError' } })
    newerTab.close()
  }, 60_000)
})
