import { liveRead } from './live-read'
import type { ThreadlensDB } from './threadlens-db'
import { StorageError } from '../../errors'
import { type Memory } from '@threadlens/core'
import { memoryReader, problemIssue, read } from '@threadlens/core/internal'
import { createMemory } from '@threadlens/core/memory'
import type { MemoryStore } from '../../memory/memory-store'
import { memoryStoreOnBackend } from '../../memory/memory-store-on-backend'

export interface MemoryStoreOptions {
  /** Clock for `createdAt`/`updatedAt`. Default: `Date.now`. */
  readonly now?: () => number
  /** Id source for tasks. Default: `crypto.randomUUID`. */
  readonly createId?: () => string
}

function checkMemory(raw: unknown, memoryId: string, operation: string): Memory {
  const checked = read(memoryReader, raw)
  if (!checked.ok || checked.value.id !== memoryId) {
    const cause = checked.ok ? undefined : { cause: problemIssue(checked.problem) }
    throw new StorageError('invalid-data', operation, `Memory "${memoryId}" is damaged in storage; reset it or report it.`, cause)
  }
  return checked.value
}

/**
 * The memory store over a threadlens database: one row per memory id (e.g. per agent). A write
 * is one read-write transaction (read, apply the pure operation, put), so two tabs writing the
 * same memory are serialised by IndexedDB and neither update is lost.
 */
export function createMemoryStore(db: ThreadlensDB, options: MemoryStoreOptions = {}): MemoryStore {
  const now = options.now ?? Date.now
  const createId = options.createId ?? (() => globalThis.crypto.randomUUID())

  const read = async (memoryId: string, operation: string): Promise<Memory | undefined> => {
    await db.checkSentinel(operation)
    const raw = await db.memory.get(memoryId)
    return raw === undefined ? undefined : checkMemory(raw, memoryId, operation)
  }

  return memoryStoreOnBackend({
    persistent: true,
    createId,
    get: (memoryId) =>
      db.run('memory.get', () =>
        db.transaction('r', [db.memory, db.meta], async () => (await read(memoryId, 'memory.get')) ?? createMemory(memoryId, now())),
      ),
    change: (memoryId, operation, change) => {
      const time = now()
      return db.run(operation, () =>
        db.transaction('rw', [db.memory, db.meta], async () => {
          const current = (await read(memoryId, operation)) ?? createMemory(memoryId, time)
          const next = change(current, time)
          await db.memory.put(next)
          return next
        }),
      )
    },
    subscribe: (memoryId, listener) => {
      let lastRev = -1
      let stopped = false
      const fail = (error: unknown): void => {
        if (stopped) return
        listener({ type: 'storage-fail', memoryId, error })
        stop()
      }
      const stopLive = liveRead(
        db,
        'memory.subscribe',
        () => read(memoryId, 'memory.subscribe'),
        (stored) => {
          const memory = stored ?? createMemory(memoryId, now())
          if (stopped || memory.rev === lastRev) return
          lastRev = memory.rev
          listener({ type: 'memory-update', memory })
        },
        fail,
      )
      const stopStatus = db.subscribeStatus((status) => {
        if (status.state === 'stopped') fail(db.toError(db.stoppedError('memory.subscribe'), 'memory.subscribe'))
      })
      function stop(): void {
        stopped = true
        stopLive()
        stopStatus()
      }
      return stop
    },
  })
}
