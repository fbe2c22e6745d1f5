import 'fake-indexeddb/auto'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { createMemoryStore } from '../backends/indexeddb/create-memory-store'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import type { ThreadStoreOptions } from '../threads/thread-store'

let databases = 0

/** A database name no other test uses. */
export function uniqueName(label: string): string {
  databases++
  return `threadlens-test-${label}-${databases}`
}

/** A fresh database (fake-indexeddb in Node) with both stores over it. */
export function openTestStores(
  label: string,
  options: ThreadStoreOptions = {},
): { db: ThreadlensDB; threads: ReturnType<typeof createThreadStore>; memory: ReturnType<typeof createMemoryStore> } {
  const db = new ThreadlensDB({ name: uniqueName(label) })
  const memoryOptions = {
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.createId === undefined ? {} : { createId: options.createId }),
  }
  return { db, threads: createThreadStore(db, options), memory: createMemoryStore(db, memoryOptions) }
}
