/**
 * @threadlens/sync: a store's threads on every device, through a Durable Streams server. Offline
 * first: appends land in IndexedDB at once and a persisted outbox pushes them; every device ends
 * with the same entries in the same order. See docs/sync.md.
 */
export type { SyncOptions, ThreadSync } from './create-sync'
export { createSync } from './create-sync'
export type { SyncErrorCode } from './errors'
export { SyncError, SyncRejectedError } from './errors'
export type { SyncState, SyncStatus, SyncStatusSource } from './sync-status'
export type { SyncHeaders } from './stream-http'
export type { DeviceSyncState, InflightPush, ProducerState, SyncStateStore, ThreadSyncState } from './sync-state'
export { inMemorySyncState } from './sync-state'
export type { IndexedDbSyncStateOptions } from './indexeddb-sync-state'
export { indexedDbSyncState } from './indexeddb-sync-state'
export type { AttachmentSync, BlobEndpoint, HttpBlobEndpointOptions } from './attachments'
export { httpBlobEndpoint } from './attachments'
export type { AgreedSpace, MemoryMessage, MemorySyncState, SpaceOperation } from './memory-stream'
export { MemorySyncConflictError } from './memory-stream'
export type { EntriesMessage, IndexMessage, WireEntry, WireRecord } from './wire'
export { wireVersion } from './wire'
