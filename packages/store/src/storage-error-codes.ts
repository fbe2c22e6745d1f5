import { ThreadlensError } from '@threadlens/core'
import { SchemaUpgradeError, StorageError, type StorageErrorCode, StorageFullError, StorageUnavailableError } from './errors'

// Browser and Dexie failures, mapped by `error.name` to a `StorageErrorCode` and a typed storage error.

/** What `toStorageError` needs to know about the connection to pick the right error. */
export interface StorageErrorContext {
  readonly operation: string
  /** Set when the connection was stopped on purpose (upgrade elsewhere, reset): that error explains a `DatabaseClosedError`. */
  readonly stopped?: StorageError | undefined
  /** The schema version the code knows, for `SchemaUpgradeError`. */
  readonly schemaVersion?: number
}

const maxCauseDepth = 8

/** Every error name in the cause chain (Dexie keeps the browser's error in `inner`). */
function errorNames(error: unknown): string[] {
  const names: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < maxCauseDepth && typeof current === 'object' && current !== null; depth++) {
    const record = current as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown }
    if (typeof record.name === 'string') names.push(record.name)
    if (Array.isArray(record.failures) && record.failures.length > 0) {
      names.push(...errorNames(record.failures[0]))
    }
    current = record.inner ?? record.cause
  }
  return names
}

const codeByName: Readonly<Record<string, StorageErrorCode>> = {
  QuotaExceededError: 'quota',
  VersionError: 'upgrade',
  UpgradeError: 'upgrade',
  MissingAPIError: 'unavailable',
  SecurityError: 'unavailable',
  DatabaseClosedError: 'closed',
  ConstraintError: 'constraint',
  DataError: 'invalid-data',
  DataCloneError: 'invalid-data',
  InvalidTableError: 'invalid-data',
  SchemaError: 'invalid-data',
  TimeoutError: 'timeout',
  AbortError: 'aborted',
  TransactionInactiveError: 'aborted',
}

/** The code for an error from the browser or Dexie, by `error.name` (the most specific one in the cause chain). */
export function storageErrorCode(error: unknown): StorageErrorCode {
  const names = errorNames(error)
  // A quota failure hides inside an AbortError; it explains the abort, so it wins.
  if (names.includes('QuotaExceededError')) return 'quota'
  for (const name of names) {
    const code = codeByName[name]
    if (code !== undefined && code !== 'aborted') return code
  }
  return names.some((name) => codeByName[name] === 'aborted') ? 'aborted' : 'unknown'
}

/**
 * Turns whatever a Dexie call threw into a threadlens error: threadlens errors pass through,
 * browser and Dexie errors become a `StorageError` subclass by their `name`.
 */
export function toStorageError(error: unknown, context: StorageErrorContext): unknown {
  if (ThreadlensError.isInstance(error)) return error
  const { operation } = context
  const code = storageErrorCode(error)
  switch (code) {
    case 'quota':
      return new StorageFullError(operation, { cause: error })
    case 'closed':
      return (
        context.stopped ??
        new StorageError('closed', operation, `The database connection is closed, so ${operation} could not run. Reload the page.`, { cause: error })
      )
    case 'upgrade':
      return new SchemaUpgradeError('database-newer', operation, context.schemaVersion ?? 0, undefined, { cause: error })
    case 'unavailable':
      return new StorageUnavailableError(operation, describe(error), { cause: error })
    default:
      return new StorageError(
        code,
        operation,
        `${operation} failed in IndexedDB (${describe(error)}); nothing of it was saved. Retry, or reload the page if it keeps failing.`,
        {
          cause: error,
        },
      )
  }
}

function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { name, message } = error as { name?: unknown; message?: unknown }
    return (
      [typeof name === 'string' ? name : undefined, typeof message === 'string' ? message : undefined].filter(Boolean).join(': ') || 'unknown error'
    )
  }
  return String(error)
}
