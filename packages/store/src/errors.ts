import { ThreadlensError } from '@threadlens/core'

/**
 * What went wrong with storage, mapped from the browser's and Dexie's `error.name`:
 * - `quota`: the site's storage quota is full (`QuotaExceededError`, also inside an `AbortError`);
 * - `reset`: the database vanished under the app (site data cleared, or erased by another tab);
 * - `upgrade`: another tab opened the database with a newer schema, or this code is older than the database;
 * - `blocked`: an upgrade or delete waits for other tabs to close the database;
 * - `unavailable`: no usable IndexedDB (private mode, disabled storage, old browser);
 * - `closed`: the connection was closed and cannot be used;
 * - `constraint`: a key already exists (two writers raced outside a transaction);
 * - `invalid-data`: a stored or given value could not be stored or read back;
 * - `aborted`, `timeout`, `unknown`: anything else.
 */
export type StorageErrorCode =
  'quota' | 'reset' | 'upgrade' | 'blocked' | 'unavailable' | 'closed' | 'constraint' | 'invalid-data' | 'aborted' | 'timeout' | 'unknown'

/** The base of every storage failure; `code` says which kind, `operation` what the store was doing. */
export class StorageError extends ThreadlensError {
  static override readonly errorName: string = 'StorageError'
  readonly code: StorageErrorCode
  /** The store call that failed, e.g. `appendMany`. */
  readonly operation: string
  constructor(code: StorageErrorCode, operation: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.operation = operation
  }
}

/** The site's storage quota is full. Nothing of the failed write was saved. */
export class StorageFullError extends StorageError {
  static override readonly errorName: string = 'StorageFullError'
  constructor(operation: string, options?: { cause?: unknown }) {
    super(
      'quota',
      operation,
      `Storage is full: the browser refused ${operation} because this site's storage quota is used up, and nothing of it was saved. ` +
        'Free space (export and delete old threads), or ask for more with navigator.storage.persist(), then retry.',
      options,
    )
  }
}

/** Why the database is gone. */
export type StorageResetReason =
  /** It was deleted and re-created under the app (site data cleared, storage evicted). */
  | 'cleared'
  /** Another tab of this app called `eraseAll()`. */
  | 'erased-elsewhere'

/**
 * The database disappeared under the app. The store stops instead of silently starting empty
 * threads at seq 0; reload the page (or call `db.acknowledgeReset()` and rebuild the UI's state).
 */
export class StorageResetError extends StorageError {
  static override readonly errorName: string = 'StorageResetError'
  readonly reason: StorageResetReason
  constructor(reason: StorageResetReason, operation: string, options?: { cause?: unknown }) {
    super(
      'reset',
      operation,
      reason === 'cleared'
        ? `The threadlens database was deleted while the app was open (site data cleared or storage evicted), so ${operation} was refused ` +
            'rather than starting over on an empty database. Reload the page, or call db.acknowledgeReset() and reload your state from the store.'
        : `All threadlens data was erased by another tab, so ${operation} was refused. Reload the page, or call db.acknowledgeReset() ` +
            'and reload your state from the store.',
      options,
    )
    this.reason = reason
  }
}

/** Why this tab cannot use the database schema it has. */
export type SchemaUpgradeReason =
  /** Another tab opened the database with a newer schema; this tab's connection was closed to let it. */
  | 'upgraded-elsewhere'
  /** The database on disk is newer than this code (a newer version of the app ran here before). */
  | 'database-newer'
  /** This tab's own upgrade waits for another tab that keeps the database open. */
  | 'blocked'

/** The schema changed under this tab (or cannot change yet): this tab stops writing and says so. */
export class SchemaUpgradeError extends StorageError {
  static override readonly errorName: string = 'SchemaUpgradeError'
  readonly reason: SchemaUpgradeReason
  /** The schema version this code knows. */
  readonly knownVersion: number
  /** The version the other tab or the disk has, when known. */
  readonly otherVersion: number | undefined
  constructor(reason: SchemaUpgradeReason, operation: string, knownVersion: number, otherVersion: number | undefined, options?: { cause?: unknown }) {
    const other = otherVersion === undefined ? 'a newer version' : `version ${otherVersion}`
    super(
      reason === 'blocked' ? 'blocked' : 'upgrade',
      operation,
      reason === 'upgraded-elsewhere'
        ? `Another tab upgraded the threadlens database to ${other} (this tab knows version ${knownVersion}), so this tab stopped writing: ` +
            `${operation} was refused. Reload this tab to use the new version.`
        : reason === 'database-newer'
          ? `The threadlens database on this device is ${other}, newer than this code (version ${knownVersion}): ${operation} was refused. ` +
            'Reload the page to get the current version of the app.'
          : `Upgrading the threadlens database to version ${knownVersion} waits for another tab that keeps it open: ${operation} cannot run yet. ` +
            'Close or reload the other tabs of this app.',
      options,
    )
    this.reason = reason
    this.knownVersion = knownVersion
    this.otherVersion = otherVersion
  }
}

/** No usable IndexedDB. `openThreadlensStores()` falls back to in-memory stores when this happens. */
export class StorageUnavailableError extends StorageError {
  static override readonly errorName: string = 'StorageUnavailableError'
  constructor(operation: string, detail: string, options?: { cause?: unknown }) {
    super(
      'unavailable',
      operation,
      `IndexedDB is not available here (${detail}), so nothing can be saved on this device. ` +
        'Use createMemoryBackedStores() (or openThreadlensStores(), which falls back by itself) and tell the user that history ' +
        'will not survive a reload; private browsing and disabled site data are the usual causes.',
      options,
    )
  }
}

/** No thread with this id is stored. */
export class ThreadNotFoundError extends ThreadlensError {
  static override readonly errorName: string = 'ThreadNotFoundError'
  readonly threadId: string
  constructor(threadId: string, operation: string) {
    super(
      `No thread "${threadId}" is stored, so ${operation} could not run. Create it first with threads.create(), or check the id (threads.list()).`,
    )
    this.threadId = threadId
  }
}

/**
 * A stored entry could not be read (written by an earlier version, or edited outside threadlens).
 * Reported, not thrown: the thread loads with a placeholder at this seq (`entry.meta.unreadable`).
 */
export class UnreadableEntryError extends StorageError {
  static override readonly errorName: string = 'UnreadableEntryError'
  readonly threadId: string
  readonly seq: number
  /** Dotted path of the broken field inside the entry, `''` for the entry as a whole. */
  readonly field: string
  /** The entry rule it breaks. */
  readonly rule: string
  // Repeated on purpose: the same shape as RevisionConflictError in packages/core/src/errors/threadlens-error.ts (two errors, each with its own fields).
  constructor(threadId: string, seq: number, field: string, rule: string, operation: string) {
    super(
      'invalid-data',
      operation,
      `Entry ${seq} of thread "${threadId}" could not be read (${field === '' ? 'the entry' : field}: ${rule}); ` +
        'it is shown as a placeholder and the rest of the thread is intact. Export the thread to keep a copy.',
    )
    this.threadId = threadId
    this.seq = seq
    this.field = field
    this.rule = rule
  }
}

/**
 * An append would make the thread larger than an import accepts (the store's `importLimits`), so
 * its export could not be restored; nothing was written.
 */
export class ThreadFullError extends ThreadlensError {
  static override readonly errorName: string = 'ThreadFullError'
  readonly threadId: string
  /** Which limit: the number of entries, or the bytes of the export. */
  readonly limit: 'entries' | 'bytes'
  /** The limit's value. */
  readonly max: number
  constructor(threadId: string, limit: 'entries' | 'bytes', max: number) {
    super(
      `Thread "${threadId}" would exceed ${limit === 'entries' ? `${max} entries` : `${max} bytes of export`}, the most an import accepts, so nothing was appended. ` +
        'Start a new thread (compaction keeps the context small, not the history), or raise importLimits.',
    )
    this.threadId = threadId
    this.limit = limit
    this.max = max
  }
}

/** An import was rejected before anything was written. */
export class ImportValidationError extends ThreadlensError {
  static override readonly errorName: string = 'ImportValidationError'
  /** 1-based line of the offending JSONL line (1 is the header); `undefined` for the input as a whole. */
  readonly line: number | undefined
  /** Dotted path of the offending field inside that line (or message), `''` for the line as a whole. */
  readonly field: string
  constructor(line: number | undefined, field: string, message: string, options?: { cause?: unknown }) {
    const where = line === undefined ? '' : ` at line ${line}${field === '' ? '' : ` (${field})`}`
    super(`Import rejected${where}: ${message}. Nothing was written.`, options)
    this.line = line
    this.field = field
  }
}

/** Options given to a store function failed validation. */
export class InvalidStoreOptionsError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidStoreOptionsError'
  readonly issues: readonly { readonly path: string; readonly message: string }[]
  constructor(what: string, issues: readonly { readonly path: string; readonly message: string }[], options?: { cause?: unknown }) {
    super(`Invalid ${what}: ${issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('; ')}`, options)
    this.issues = issues
  }
}

/** `recordAttempt` was given an attempt that does not match the call attempt core's reader checks. Nothing was written. */
export class InvalidCallAttemptError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidCallAttemptError'
  /** Dotted path of the offending field. */
  readonly field: string
  constructor(field: string, rule: string) {
    super(`Invalid call attempt: ${field || 'attempt'}: ${rule}. Build attempts with the session (or core's callRecord) rather than by hand.`)
    this.field = field
  }
}

/** An image or file the store was asked to keep is not acceptable (too big, no media type, not a Blob). */
export class InvalidAttachmentError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidAttachmentError'
  constructor(message: string) {
    super(`Cannot store the attachment: ${message}`)
  }
}
