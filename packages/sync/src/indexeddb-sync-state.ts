import { newDeviceState } from './sync-state'
import type { DeviceSyncState, SyncStateStore, ThreadSyncState } from './sync-state'
import type { MemorySyncState } from './memory-stream'

/**
 * Sync state in its own IndexedDB database (two object stores of plain rows, so no Dexie is
 * needed here): the outbox and offsets survive reloads and crashes. Each save is one transaction.
 */
export interface IndexedDbSyncStateOptions {
  /** Default: `threadlens-sync`. Use one name per synced store. */
  readonly name?: string
  /** Default: the global `indexedDB`. */
  readonly indexedDB?: IDBFactory
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = () => reject(transaction.error)
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'))
  })
}

export function indexedDbSyncState(options: IndexedDbSyncStateOptions = {}): SyncStateStore {
  const name = options.name ?? 'threadlens-sync'
  let opening: Promise<IDBDatabase> | undefined
  const database = (): Promise<IDBDatabase> => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = (options.indexedDB ?? indexedDB).open(name, 1)
      request.onupgradeneeded = () => {
        request.result.createObjectStore('device')
        request.result.createObjectStore('threads', { keyPath: 'threadId' })
        request.result.createObjectStore('memories', { keyPath: 'memoryId' })
      }
      request.onsuccess = () => {
        // Another tab deleting or upgrading the database: let it, and open again next time.
        request.result.onversionchange = () => {
          request.result.close()
          opening = undefined
        }
        resolve(request.result)
      }
      request.onerror = () => reject(request.error)
      request.onblocked = () => reject(new Error(`IndexedDB database ${name} is blocked by another tab`))
    })
    return opening
  }
  const write = async (store: 'device' | 'threads' | 'memories', change: (objects: IDBObjectStore) => void): Promise<void> => {
    const transaction = (await database()).transaction(store, 'readwrite')
    change(transaction.objectStore(store))
    await committed(transaction)
  }
  return {
    async loadDevice(createId) {
      const stored = (await done((await database()).transaction('device').objectStore('device').get('device'))) as DeviceSyncState | undefined
      if (stored !== undefined) return stored
      const device = newDeviceState(createId())
      await write('device', (objects) => objects.put(device, 'device'))
      return device
    },
    saveDevice: (state) => write('device', (objects) => objects.put(state, 'device')),
    async loadThreads() {
      return (await done((await database()).transaction('threads').objectStore('threads').getAll())) as ThreadSyncState[]
    },
    saveThread: (state) => write('threads', (objects) => objects.put(state)),
    async loadMemories() {
      return (await done((await database()).transaction('memories').objectStore('memories').getAll())) as MemorySyncState[]
    },
    saveMemory: (state) => write('memories', (objects) => objects.put(state)),
    clear: async () => {
      for (const store of ['device', 'threads', 'memories'] as const) await write(store, (objects) => objects.clear())
    },
  }
}
