import type { Entry } from '@threadlens/core'
import { custom, fail, looseObject, optional, string } from '@threadlens/core/internal'
import { Dexie, type Table } from 'dexie'
import { SchemaUpgradeError, StorageError, StorageResetError } from '../../errors'
import { toStorageError } from '../../storage-error-codes'
import type { Memory } from '@threadlens/core'
import type { CallAttempt, TokenCalibration } from '@threadlens/core/calls'
import {
  sentinelKey,
  sentinelRowReader,
  type AttachmentRefRow,
  type AttachmentRow,
  type MetaRow,
  type RecallTermsChunk,
  type ThreadRow,
} from '../../rows'
import { defineSchema, schemaVersion } from './schema'
import { parseOptions, readIfValid } from '../../parse-options'
import { dexieRuntime, type DexieRuntime } from './dexie-runtime'
import { CommitHooks, type OwnAppend } from './commit-hooks'

export interface OpenThreadlensDBOptions {
  /** Name of the IndexedDB database: one per app (or per app user). Required; no default. */
  readonly name: string
  /** The IndexedDB factory. Default: `globalThis.indexedDB` (pass fake-indexeddb's in Node). */
  readonly indexedDB?: IDBFactory
  /** The matching key range constructor. Default: `globalThis.IDBKeyRange`. */
  readonly IDBKeyRange?: typeof IDBKeyRange
}

const databaseName = string({ max: 256 })

export const databaseOptionsReader = looseObject<OpenThreadlensDBOptions>({
  name: (value, at) => (value === '' ? fail(at, 'name the database (one per app or per user)') : databaseName(value, at)),
  indexedDB: optional(
    custom<IDBFactory>((value) => typeof value === 'object' && value !== null),
    'loose',
  ),
  IDBKeyRange: optional(
    custom<typeof IDBKeyRange>((value) => typeof value === 'function'),
    'loose',
  ),
})

/** Why a database connection stopped for good (until a reload or `acknowledgeReset()`). */
export type DatabaseStopReason = 'cleared' | 'erased-elsewhere' | 'upgraded-elsewhere' | 'database-newer'

/**
 * - `working`: usable;
 * - `blocked`: this tab's upgrade (or erase) waits for another tab to close the database;
 * - `stopped`: the database vanished or changed under this tab; every call throws the matching error.
 */
export type DatabaseStatus =
  | { readonly state: 'working' }
  | { readonly state: 'blocked' }
  | { readonly state: 'stopped'; readonly reason: DatabaseStopReason; readonly otherVersion: number | undefined }

const working: DatabaseStatus = { state: 'working' }

/**
 * The threadlens database (Dexie): `threads` (one row per thread, with the facts windowed loads
 * need), `entries` keyed `[threadId+seq]`, `memory` (one row per agent) and `meta` (the sentinel
 * that tells this database apart from one re-created under the app). Apps get it from
 * `await openThreadlensDB(…)`, which loads this module (and Dexie) on first use; the class itself
 * is exported by `@threadlens/store/dexie` only.
 */
export class ThreadlensDB extends Dexie {
  declare readonly threads: Table<ThreadRow, string>
  declare readonly entries: Table<Entry, [string, number]>
  declare readonly memory: Table<Memory, string>
  declare readonly meta: Table<MetaRow, string>
  declare readonly attempts: Table<CallAttempt, [string, string]>
  declare readonly calibrations: Table<TokenCalibration, [string, string]>
  declare readonly attachments: Table<AttachmentRow, string>
  declare readonly attachmentRefs: Table<AttachmentRefRow, [string, string]>
  declare readonly recallTerms: Table<RecallTermsChunk, [string, number]>

  /** Calibrations this connection wrote or read last, by `model\u0000counter`: the call log answers "after this call" from it. */
  readonly recentCalibrations = new Map<string, TokenCalibration>()

  /** The schema version this code knows. */
  readonly schemaVersion = schemaVersion

  /** @internal What the stores use of Dexie, so that their modules import only its types. */
  readonly dexieRuntime: DexieRuntime = dexieRuntime

  // Plain (not #private) fields: Dexie hands a Proxy of the instance to some callbacks.
  private currentStatus: DatabaseStatus = working
  private instanceId: string | undefined
  private readonly statusListeners = new Set<(status: DatabaseStatus) => void>()
  private readonly commits = new CommitHooks()

  constructor(options: OpenThreadlensDBOptions) {
    const parsed = parseOptions(databaseOptionsReader, options, 'database options')
    super(parsed.name, {
      // No shared live-query result cache: the stores' few live queries each read once per change,
      // and the cache's middleware would add its bookkeeping to every read and write of an append.
      cache: 'disabled',
      ...(options.indexedDB === undefined ? {} : { indexedDB: options.indexedDB }),
      ...(options.IDBKeyRange === undefined ? {} : { IDBKeyRange: options.IDBKeyRange }),
    })
    defineSchema(this)
    this.use(this.commits.middleware())
    this.on('populate', (transaction) => {
      transaction.table('meta').add({ key: sentinelKey, instanceId: globalThis.crypto.randomUUID(), createdAt: Date.now() })
    })
    this.on('ready', (vip) => this.onReady(vip as ThreadlensDB), true)
    // Returning false stops Dexie's default handler, which would re-open the database later on its own.
    this.on('versionchange', (event) => {
      const deleting = event.newVersion === null || event.newVersion === 0
      this.stop(deleting ? 'erased-elsewhere' : 'upgraded-elsewhere', deleting ? undefined : (event.newVersion as number) / 10)
      this.close({ disableAutoOpen: true })
      return false
    })
    this.on('blocked', (event) => {
      if (event.newVersion === null || event.newVersion === 0) return false
      if (this.currentStatus.state === 'working') this.setStatus({ state: 'blocked' })
      console.warn('[threadlens] the database upgrade waits for another tab that keeps it open: close or reload the other tabs of this app')
      return false
    })
  }

  private async onReady(vip: ThreadlensDB): Promise<void> {
    const onDisk = (vip.backendDB()?.version ?? 0) / 10
    if (onDisk > schemaVersion) {
      this.stop('database-newer', onDisk)
      return
    }
    const stored = await vip.meta.get(sentinelKey)
    const sentinel = stored === undefined ? undefined : readIfValid(sentinelRowReader, stored)
    if (this.instanceId === undefined) {
      if (sentinel === undefined) {
        // A database written before the sentinel existed (or damaged): adopt it with a new one.
        const created = { key: sentinelKey, instanceId: globalThis.crypto.randomUUID(), createdAt: Date.now() } as const
        await vip.meta.put(created)
        this.instanceId = created.instanceId
      } else {
        this.instanceId = sentinel.instanceId
      }
    } else if (sentinel?.instanceId !== this.instanceId) {
      this.stop('cleared', undefined)
      return
    }
    if (this.currentStatus.state === 'blocked') this.setStatus(working)
  }

  get status(): DatabaseStatus {
    return this.currentStatus
  }

  /** Calls `listener` on every status change; returns the function that stops it. */
  subscribeStatus(listener: (status: DatabaseStatus) => void): () => void {
    this.statusListeners.add(listener)
    return () => {
      this.statusListeners.delete(listener)
    }
  }

  private setStatus(status: DatabaseStatus): void {
    this.currentStatus = status
    for (const listener of this.statusListeners) listener(status)
  }

  private stop(reason: DatabaseStopReason, otherVersion: number | undefined): void {
    if (this.currentStatus.state === 'stopped') return
    this.setStatus({ state: 'stopped', reason, otherVersion })
  }

  /** The error every call gets once the connection stopped, or `undefined` while it works. */
  stoppedError(operation: string): StorageError | undefined {
    const status = this.currentStatus
    if (status.state === 'blocked') return new SchemaUpgradeError('blocked', operation, schemaVersion, undefined)
    if (status.state !== 'stopped') return undefined
    switch (status.reason) {
      case 'cleared':
      case 'erased-elsewhere':
        return new StorageResetError(status.reason, operation)
      case 'upgraded-elsewhere':
      case 'database-newer':
        return new SchemaUpgradeError(status.reason, operation, schemaVersion, status.otherVersion)
    }
  }

  /** Throws the stop error, if any (and fails fast while this tab's upgrade is blocked). Every store call starts here. */
  assertWorking(operation: string): void {
    const error = this.stoppedError(operation)
    if (error !== undefined) throw error
  }

  /**
   * Inside a transaction: the sentinel row must be the one this tab saw at open. A missing or
   * different one means the database was deleted and re-created under the app.
   */
  async checkSentinel(operation: string): Promise<void> {
    const stored = await this.meta.get(sentinelKey)
    if (this.instanceId !== undefined && stored?.instanceId === this.instanceId) return
    if (this.instanceId === undefined && stored !== undefined) {
      this.instanceId = stored.instanceId
      return
    }
    this.stop('cleared', undefined)
    throw this.stoppedError(operation)
  }

  /**
   * Inside a write transaction: runs `callback` once the transaction has committed, as its
   * `complete` event arrives and before Dexie's own completion work (its promises settling, live
   * queries re-running): what this tab has written reaches its own views first. Never runs when
   * the transaction aborts. Outside a write transaction it does nothing.
   */
  onCommitted(callback: (changed: object | undefined) => void): void {
    const transaction = this.dexieRuntime.currentIdbTransaction()
    if (transaction !== undefined && transaction.mode === 'readwrite') this.commits.onCommitted(transaction, callback)
  }

  /**
   * Inside a write transaction that appends to `threadId` up to `lastSeq`: once committed, its
   * change signal is known as this tab's own append (see `ownAppendIn`).
   */
  markOwnAppend(threadId: string, lastSeq: number): void {
    this.onCommitted((changed) => {
      if (changed !== undefined) this.commits.rememberOwnAppend(changed, { threadId, lastSeq })
    })
  }

  /** The append of this tab that a change signal (Dexie's `storagemutated` parts) comes from, if it does. */
  ownAppendIn(changed: object): OwnAppend | undefined {
    return this.commits.ownAppendIn(changed)
  }

  /** Runs a store call: refuses it when stopped, and maps whatever it throws to a threadlens error. */
  async run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    this.assertWorking(operation)
    try {
      return await body()
    } catch (error) {
      const mapped = this.toError(error, operation)
      if (!(mapped instanceof StorageError && (mapped.code === 'aborted' || mapped.code === 'closed'))) throw mapped
      // Clearing the site's data closes the connection under a running transaction, and its abort
      // can arrive before the browser's `close` event: look at the sentinel, so this call reports
      // the StorageResetError the next one would, not a bare abort.
      await this.probeSentinel()
      throw this.stoppedError(operation) ?? mapped
    }
  }

  /** Reads the sentinel (Dexie reopens a connection the browser closed; see `onReady`): three tries at most, 150 ms of waiting in all. */
  private async probeSentinel(): Promise<void> {
    for (let attempt = 1; attempt <= 3 && this.currentStatus.state === 'working'; attempt++) {
      try {
        await this.transaction('r', this.meta, () => this.checkSentinel('check'))
        return
      } catch {
        // The connection is closing (Dexie reopens it after the browser's `close` event), or the sentinel is gone (the status says so).
        if (attempt < 3) await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
      }
    }
  }

  toError(error: unknown, operation: string): unknown {
    return toStorageError(error, { operation, stopped: this.stoppedError(operation), schemaVersion })
  }

  /**
   * After a `StorageResetError`: accept that the old data is gone and carry on with the database
   * as it is now (empty, or as another tab left it). Reload your state from the store afterwards.
   */
  async acknowledgeReset(): Promise<void> {
    const status = this.currentStatus
    if (status.state !== 'stopped' || (status.reason !== 'cleared' && status.reason !== 'erased-elsewhere')) return
    this.close({ disableAutoOpen: false })
    this.instanceId = undefined
    this.setStatus(working)
    await this.open()
  }

  /** Deletes the whole database (other tabs close theirs and stop), then starts a fresh, empty one. */
  async eraseDatabase(): Promise<void> {
    try {
      await this.delete({ disableAutoOpen: false })
    } catch (error) {
      throw this.toError(error, 'eraseAll')
    }
    this.instanceId = undefined
    this.setStatus(working)
    await this.open()
  }
}
