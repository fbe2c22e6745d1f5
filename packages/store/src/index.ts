// The database class (and Dexie with it) loads on the first `openThreadlensDB`/`openThreadlensStores`:
// only its type is exported here; `@threadlens/store/dexie` exports the class.
export type { DatabaseStatus, DatabaseStopReason, OpenThreadlensDBOptions, ThreadlensDB } from './backends/indexeddb/threadlens-db'
export { openThreadlensDB } from './backends/indexeddb/open-database'
export type { ThreadRecord } from './rows'
export { schemaVersion } from './backends/indexeddb/schema'

export type {
  CreateThreadRecordOptions,
  ForkThreadOptions,
  ImportInput,
  ImportThreadOptions,
  ImportedThread,
  LoadThreadOptions,
  LoadWindowOptions,
  PlacedEntries,
  SubscribeOptions,
  SyncedEntry,
  ThreadStore,
  ThreadStoreEvent,
  ThreadStoreListener,
  ThreadStoreOptions,
} from './threads/thread-store'
export { createThreadStore } from './backends/indexeddb/create-thread-store'
export type { CallLogEvent, CallLogStore } from './calls/call-log-store'
export type { CallLogOptions } from './backends/indexeddb/create-call-log'
export { createCallLog } from './backends/indexeddb/create-call-log'

export type { AddTaskOptions, MemoryStore, MemoryStoreEvent, MemoryStoreListener, SpaceDataOf } from './memory/memory-store'
export type { MemoryStoreOptions } from './backends/indexeddb/create-memory-store'
export { createMemoryStore } from './backends/indexeddb/create-memory-store'

export type { ImportLimits } from './transfer/import-limits'
export { defaultImportLimits } from './transfer/import-limits'
export type { ThreadFileHeader } from './transfer/thread-file-format'
export { threadFormatName, threadFormatVersion } from './transfer/thread-file-format'

export type { MemoryBackedStores } from './backends/in-memory/create-in-memory-stores'
export { createMemoryBackedStores } from './backends/in-memory/create-in-memory-stores'
export type { OpenThreadlensStoresOptions, ThreadlensStores } from './open-stores'
export { openThreadlensStores } from './open-stores'

export type { SchemaUpgradeReason, StorageErrorCode, StorageResetReason } from './errors'
export {
  ImportValidationError,
  InvalidCallAttemptError,
  InvalidStoreOptionsError,
  SchemaUpgradeError,
  StorageError,
  StorageFullError,
  StorageResetError,
  StorageUnavailableError,
  ThreadFullError,
  ThreadNotFoundError,
  UnreadableEntryError,
} from './errors'
