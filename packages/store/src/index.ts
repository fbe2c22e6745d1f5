export type { DatabaseStatus, OpenThreadlensDBOptions, StopReason } from './database/threadlens-db'
export { ThreadlensDB, openThreadlensDB } from './database/threadlens-db'
export type { ThreadRecord } from './database/rows'
export { schemaVersion } from './database/schema'

export type {
  CreateThreadRecordOptions,
  ForkThreadOptions,
  ImportInput,
  ImportThreadOptions,
  LoadThreadOptions,
  LoadWindowOptions,
  SubscribeOptions,
  ThreadStore,
  ThreadStoreEvent,
  ThreadStoreListener,
  ThreadStoreOptions,
} from './threads/thread-store'
export { createThreadStore } from './threads/create-thread-store'
export type { CallLogEvent, CallLogStore } from './calls/call-log-store'
export { maxAttemptsPerThread } from './calls/call-log-store'
export type { CallLogOptions } from './calls/create-call-log'
export { createCallLog } from './calls/create-call-log'
export { createMemoryCallLog } from './calls/create-memory-call-log'
export type { ThreadFacts, SummaryFact } from './threads/thread-facts'

// Memory's data and pure operations live in core; re-exported here for convenience.
export type { BuiltinSpaceName, ListSpace, MapSpace, Memory, MemorySpaces, Space, SpaceKind, Task, TaskSpace, TaskStatus, WriteOptions } from '@threadlens/core'
export { builtinSpaceNames, memorySchema, spaceSchema, taskSchema, RevisionConflictError, InvalidMemoryOperationError } from '@threadlens/core'
export {
  createMemory,
  createSpace,
  deleteSpace,
  getSpace,
  isBuiltinSpace,
  mapDelete,
  mapPut,
  tasksAdd,
  tasksComplete,
  tasksInsert,
  tasksNext,
  tasksOpen,
  tasksRemove,
  tasksReorder,
  updateSpace,
  worldGet,
} from '@threadlens/core'
export type { AddTaskOptions, MemoryStore, MemoryStoreEvent, MemoryStoreListener, SpaceDataOf } from './memory/memory-store'
export type { MemoryStoreOptions } from './memory/create-memory-store'
export { createMemoryStore } from './memory/create-memory-store'

export type { ImportLimits } from './transfer/import-limits'
export { defaultImportLimits } from './transfer/import-limits'
export type { AttachmentLine, ThreadFileHeader } from './transfer/thread-jsonl'
export { threadFormatName, threadFormatVersion } from './transfer/thread-jsonl'

export type { MemoryBackedStores } from './fallback/create-memory-backed-stores'
export { createMemoryBackedStores } from './fallback/create-memory-backed-stores'
export type { AttachmentInfo, AttachmentStore, PutAttachmentOptions } from './attachments/attachment-store'
export { filePart, imagePart, maxAttachmentBytes } from './attachments/attachment-store'
export { createAttachmentStore } from './attachments/create-attachment-store'
export { createMemoryAttachmentStore } from './attachments/create-memory-attachment-store'
export type { OpenThreadlensStoresOptions, ThreadlensStores } from './open-stores'
export { openThreadlensStores } from './open-stores'

export type { SchemaUpgradeReason, StorageErrorCode, StorageErrorContext, StorageResetReason } from './errors'
export {
  ImportValidationError,
  InvalidAttachmentError,
  InvalidCallAttemptError,
  InvalidStoreOptionsError,
  SchemaUpgradeError,
  StorageError,
  StorageFullError,
  StorageResetError,
  StorageUnavailableError,
  ThreadFullError,
  ThreadNotFoundError,
  ThreadRevisionConflictError,
  UnreadableEntryError,
  storageErrorCode,
  toStorageError,
} from './errors'
