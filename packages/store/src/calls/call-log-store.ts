import type { CallAttempt, CallLog, TokenCalibration } from '@threadlens/core/calls'

export type CallLogEvent =
  | { readonly type: 'attempts-update'; readonly threadId: string; readonly attempts: readonly CallAttempt[] }
  | { readonly type: 'calibrations-update'; readonly calibrations: readonly TokenCalibration[] }
  | { readonly type: 'storage-fail'; readonly error: unknown }

/**
 * The call log kept by the store: core's `CallLog` (what the session writes) plus live reads for
 * devtools. In IndexedDB, updates reach every tab of the app.
 */
export interface CallLogStore extends CallLog {
  /** Every model's calibration, newest first. */
  calibrations(): Promise<readonly TokenCalibration[]>
  /** A thread's attempts now and after every change, in this tab or another. Returns unsubscribe. */
  subscribeAttempts(threadId: string, listener: (event: CallLogEvent) => void): () => void
  /** Every calibration now and after every change. Returns unsubscribe. */
  subscribeCalibrations(listener: (event: CallLogEvent) => void): () => void
}

/** Attempts of one call are few; a thread keeps its newest this many, so a server failing forever cannot fill the disk. */
export const maxAttemptsPerThread = 500

export const byStart = (a: CallAttempt, b: CallAttempt): number => (a.record.startedAt ?? 0) - (b.record.startedAt ?? 0) || a.attempt - b.attempt
