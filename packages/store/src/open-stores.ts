import { openThreadlensDB } from './backends/indexeddb/open-database'
import type { OpenThreadlensDBOptions, ThreadlensDB } from './backends/indexeddb/threadlens-db'
import { StorageUnavailableError } from './errors'
import { storageErrorCode } from './storage-error-codes'
import { createMemoryStore } from './backends/indexeddb/create-memory-store'
import type { MemoryStore } from './memory/memory-store'
import { createThreadStore } from './backends/indexeddb/create-thread-store'
import type { CallLogStore } from './calls/call-log-store'
import { createCallLog } from './backends/indexeddb/create-call-log'
import type { ThreadStore, ThreadStoreOptions } from './threads/thread-store'
import type { AttachmentStore } from './attachments/attachment-store'
import { createAttachmentStore } from './backends/indexeddb/create-attachment-store'

export type OpenThreadlensStoresOptions = OpenThreadlensDBOptions & ThreadStoreOptions

export type ThreadlensStores =
  | {
      readonly persistent: true
      readonly db: ThreadlensDB
      readonly threads: ThreadStore
      readonly memory: MemoryStore
      readonly calls: CallLogStore
      /** Images and files the threads' messages use (bytes kept once, deleted with the last thread using them). */
      readonly attachments: AttachmentStore
      readonly unavailable: undefined
    }
  | {
      readonly persistent: false
      readonly db: undefined
      readonly threads: ThreadStore
      readonly memory: MemoryStore
      readonly calls: CallLogStore
      /** In memory: lost on reload, like everything else here. */
      readonly attachments: AttachmentStore
      /** Why IndexedDB could not be used: show the user that history will not survive a reload. */
      readonly unavailable: StorageUnavailableError
    }

const unavailableNames = new Set(['MissingAPIError', 'SecurityError', 'InvalidStateError', 'OpenFailedError', 'UnknownError'])

function errorChainNames(error: unknown): string[] {
  const names: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { name, inner, cause } = current as { name?: unknown; inner?: unknown; cause?: unknown }
    if (typeof name === 'string') names.push(name)
    current = inner ?? cause
  }
  return names
}

/**
 * Opens the database and both stores; when IndexedDB cannot be used at all, falls back to
 * in-memory stores with the same API and says so (`persistent: false`, `unavailable`).
 * Other failures (a newer schema, a full disk) are thrown: they need the user's attention.
 */
export async function openThreadlensStores(options: OpenThreadlensStoresOptions): Promise<ThreadlensStores> {
  const { name, indexedDB, IDBKeyRange, ...storeOptions } = options
  const db = await openThreadlensDB({
    name,
    ...(indexedDB === undefined ? {} : { indexedDB }),
    ...(IDBKeyRange === undefined ? {} : { IDBKeyRange }),
  })
  try {
    await db.open()
    db.assertWorking('open')
  } catch (error) {
    const names = errorChainNames(error)
    const unusable =
      StorageUnavailableError.isInstance(error) ||
      storageErrorCode(error) === 'unavailable' ||
      names.some((errorName) => unavailableNames.has(errorName))
    if (!unusable || storageErrorCode(error) === 'upgrade' || storageErrorCode(error) === 'quota') throw db.toError(error, 'open')
    const unavailable = StorageUnavailableError.isInstance(error)
      ? error
      : new StorageUnavailableError('open', names.join(' / ') || 'open failed', { cause: error })
    // The in-memory stores load only when IndexedDB cannot be used.
    const { createMemoryBackedStores } = await import('./backends/in-memory/create-in-memory-stores')
    const fallback = createMemoryBackedStores(storeOptions)
    return {
      persistent: false,
      db: undefined,
      threads: fallback.threads,
      memory: fallback.memory,
      calls: fallback.calls,
      attachments: fallback.attachments,
      unavailable,
    }
  }
  const memoryOptions = {
    ...(storeOptions.now === undefined ? {} : { now: storeOptions.now }),
    ...(storeOptions.createId === undefined ? {} : { createId: storeOptions.createId }),
  }
  return {
    persistent: true,
    db,
    threads: createThreadStore(db, storeOptions),
    memory: createMemoryStore(db, memoryOptions),
    calls: createCallLog(db, storeOptions.now === undefined ? {} : { now: storeOptions.now }),
    attachments: createAttachmentStore(db, storeOptions.now === undefined ? {} : { now: storeOptions.now }),
    unavailable: undefined,
  }
}
