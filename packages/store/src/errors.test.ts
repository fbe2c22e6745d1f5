import { RevisionConflictError, ThreadlensError } from '@threadlens/core'
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { ImportValidationError, SchemaUpgradeError, StorageError, StorageFullError, StorageResetError, StorageUnavailableError } from './errors'
import { storageErrorCode, toStorageError } from './storage-error-codes'

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${name} happened`), { name }, extra)

describe('storage error mapping', () => {
  it('maps error names, looking through Dexie wrappers for the browser error', () => {
    expect(storageErrorCode(named('QuotaExceededError'))).toBe('quota')
    // Chromium reports a full disk as an aborted transaction with the quota error inside.
    expect(storageErrorCode(named('AbortError', { inner: named('QuotaExceededError') }))).toBe('quota')
    expect(storageErrorCode(new Dexie.AbortError('aborted', named('QuotaExceededError')))).toBe('quota')
    expect(storageErrorCode(new Dexie.BulkError('bulk', [named('ConstraintError')]))).toBe('constraint')
    expect(storageErrorCode(new Dexie.MissingAPIError('no indexedDB'))).toBe('unavailable')
    expect(storageErrorCode(new Dexie.DatabaseClosedError())).toBe('closed')
    expect(storageErrorCode(named('VersionError'))).toBe('upgrade')
    expect(storageErrorCode(named('DataCloneError'))).toBe('invalid-data')
    expect(storageErrorCode(named('AbortError'))).toBe('aborted')
    expect(storageErrorCode(named('SomethingNew'))).toBe('unknown')
    expect(storageErrorCode('not an error')).toBe('unknown')
  })

  it('turns storage failures into threadlens errors and lets threadlens errors through', () => {
    const full = toStorageError(new Dexie.AbortError('aborted', named('QuotaExceededError')), { operation: 'appendMany' })
    expect(full).toBeInstanceOf(StorageFullError)
    expect(full).toMatchObject({ code: 'quota', operation: 'appendMany' })
    expect((full as Error).message).toMatch(/nothing of it was saved/)
    expect(toStorageError(new Dexie.MissingAPIError(), { operation: 'open' })).toBeInstanceOf(StorageUnavailableError)
    expect(toStorageError(named('VersionError'), { operation: 'open', schemaVersion: 2 })).toMatchObject({
      name: 'SchemaUpgradeError',
      knownVersion: 2,
    })
    const stopped = new StorageResetError('cleared', 'append')
    expect(toStorageError(new Dexie.DatabaseClosedError(), { operation: 'append', stopped })).toBe(stopped)
    const other = toStorageError(named('UnknownError'), { operation: 'load' })
    expect(other).toBeInstanceOf(StorageError)
    expect(other).toMatchObject({ code: 'unknown' })
    const conflict = new RevisionConflictError({ kind: 'memory-space', memoryId: 'agent', space: 'world' }, 1, 2, {})
    expect(toStorageError(conflict, { operation: 'x' })).toBe(conflict)
  })

  it('gives every error the threadlens marker, a name, structured fields and a way out', () => {
    const errors = [
      new StorageFullError('append'),
      new StorageResetError('erased-elsewhere', 'append'),
      new SchemaUpgradeError('upgraded-elsewhere', 'append', 2, 3),
      new SchemaUpgradeError('blocked', 'open', 3, undefined),
      new StorageUnavailableError('open', 'MissingAPIError'),
      new RevisionConflictError({ kind: 'memory-space', memoryId: 'agent', space: 'tasks' }, 4, 5, { data: [] }),
      new RevisionConflictError({ kind: 'thread-record', threadId: 't1' }, 1, 2, { rev: 2 }),
      new ImportValidationError(3, 'payload.role', 'invalid option'),
    ]
    for (const error of errors) {
      expect(ThreadlensError.isInstance(error)).toBe(true)
      expect(error.name).not.toBe('Error')
      expect(error.message).toMatch(/retry|reload|Reload|close|Use|Merge|Nothing was written|Free space/)
    }
    expect(new SchemaUpgradeError('blocked', 'open', 3, undefined).code).toBe('blocked')
    expect(new ImportValidationError(3, 'payload.role', 'invalid option').message).toBe(
      'Import rejected at line 3 (payload.role): invalid option. Nothing was written.',
    )
  })
})
