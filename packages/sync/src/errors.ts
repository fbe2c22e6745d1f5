import { ThreadlensError } from '@threadlens/core'

/**
 * What kind of sync failure:
 * - `network`: the server did not answer (offline, refused, cut, timed out); retried;
 * - `http`: the server answered with an error status it should not have (5xx retried, others not);
 * - `auth`: 401 or 403 without a producer fence: the headers hook's credentials were refused;
 * - `content-type`: the stream is not a JSON stream (someone else created it);
 * - `malformed`: the server's answer is not the protocol (bad JSON, missing offset);
 * - `schema-version`: the stream holds messages of a newer threadlens: this thread waits for an update;
 * - `stream-closed`: the thread's stream was closed (the thread was deleted on another device).
 */
export type SyncErrorCode = 'network' | 'http' | 'auth' | 'content-type' | 'malformed' | 'schema-version' | 'stream-closed'

/** A sync step failed; `code` says how, `url` which stream. Nothing local was changed by the failed step. */
export class SyncError extends ThreadlensError {
  static override readonly errorName: string = 'SyncError'
  declare readonly code: SyncErrorCode
  /** The stream's URL. */
  declare readonly url: string
  /** The HTTP status, when the server answered. */
  declare readonly status: number | undefined
  constructor(code: SyncErrorCode, url: string, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options)
    this.code = code
    this.url = url
    this.status = options?.status
  }
}

/**
 * A message or entry of a thread's stream that this device refused: not valid JSON of the sync
 * format, or an entry that breaks the thread's rules. Every device of the same version refuses it
 * the same way, so it is skipped everywhere and the thread stays the same on all of them.
 */
export class SyncRejectedError extends ThreadlensError {
  static override readonly errorName: string = 'SyncRejectedError'
  declare readonly threadId: string
  /** The stream offset the message was read at (the one before it). */
  declare readonly offset: string
  /** The refused entry's id, when the entry (not the whole message) was at fault. */
  declare readonly entryId: string | undefined
  /** What was wrong. */
  declare readonly reason: string
  constructor(threadId: string, offset: string, reason: string, entryId?: string, options?: { cause?: unknown }) {
    super(`Sync refused ${entryId === undefined ? 'a message' : `entry ${entryId}`} of thread ${threadId} at offset ${offset}: ${reason}`, options)
    this.threadId = threadId
    this.offset = offset
    this.entryId = entryId
    this.reason = reason
  }
}
