import type { CallAttempt } from './call-record'
import type { CalibrationSample, TokenCalibration } from './calibration'

/**
 * Where what a call leaves outside the thread is kept: its failed, retried and aborted attempts,
 * and each model's token calibration. `@threadlens/store` keeps it in IndexedDB (shared by tabs);
 * the session writes to it and never reads the thread's history from it.
 */
export interface CallLog {
  /** Adds an attempt; the same id again replaces it (a retried write stays one row). */
  recordAttempt(attempt: CallAttempt): Promise<void>
  /** A thread's attempts, oldest first. */
  attempts(threadId: string): Promise<readonly CallAttempt[]>
  /** The calibration of a model against a counter, when any call has reported usage. */
  calibration(model: string, counter: string): Promise<TokenCalibration | undefined>
  /**
   * The calibration this tab wrote last (with a reply) or read, without a read: what the session
   * reports after each call. Optional; without it the session reads `calibration`.
   */
  recentCalibration?(model: string, counter: string): TokenCalibration | undefined
  /** Adds one call's counts, reading and writing in one transaction so samples of several tabs all count. */
  addCalibrationSample(model: string, counter: string, sample: CalibrationSample): Promise<TokenCalibration>
}
