import { addCalibrationSample, type CallAttempt, type CalibrationSample, type TokenCalibration } from '@threadlens/core/calls'
import { callAttemptReader, problemIssue, read } from '@threadlens/core/internal'
import { InvalidCallAttemptError } from '../errors'
import { maxAttemptsPerThread, type CallLogEvent, type CallLogStore } from './call-log-store'

/**
 * Where the call log is kept: IndexedDB (`createCallLog`) or memory (`createMemoryCallLog`). A
 * backend only stores and reads, each method atomic; `callLogOnBackend` holds the rules.
 */
export interface CallLogBackend {
  /** Stores the attempt, then deletes the ones `trim` picks among its thread's attempts (oldest first). */
  putAttempt(attempt: CallAttempt, trim: (attempts: readonly CallAttempt[]) => readonly CallAttempt[]): Promise<void>
  /** A thread's attempts, oldest first. */
  attempts(threadId: string): Promise<readonly CallAttempt[]>
  calibration(model: string, counter: string): Promise<TokenCalibration | undefined>
  /** Every calibration, newest first. */
  calibrations(): Promise<readonly TokenCalibration[]>
  /** Reads a calibration and stores what `change` makes of it. */
  changeCalibration(model: string, counter: string, change: (previous: TokenCalibration | undefined) => TokenCalibration): Promise<TokenCalibration>
  /** The calibration last read or written here, without waiting. */
  recentCalibration(model: string, counter: string): TokenCalibration | undefined
  subscribeAttempts(threadId: string, listener: (event: CallLogEvent) => void): () => void
  subscribeCalibrations(listener: (event: CallLogEvent) => void): () => void
}

/** The oldest attempts past a thread's cap, so a server failing forever cannot fill the disk. */
export function attemptsOverCap(attempts: readonly CallAttempt[]): readonly CallAttempt[] {
  return attempts.slice(0, Math.max(0, attempts.length - maxAttemptsPerThread))
}

/** The call log API over a backend: attempts validated against core's schema and capped per thread, calibrations updated in one step. */
export function callLogOnBackend(backend: CallLogBackend, options: { readonly now?: () => number } = {}): CallLogStore {
  const now = options.now ?? Date.now
  return {
    async recordAttempt(attempt) {
      const checked = read(callAttemptReader, attempt)
      if (!checked.ok) {
        const issue = problemIssue(checked.problem)
        throw new InvalidCallAttemptError(issue.path, issue.message)
      }
      await backend.putAttempt(checked.value, attemptsOverCap)
    },
    attempts: (threadId) => backend.attempts(threadId),
    calibration: (model, counter) => backend.calibration(model, counter),
    recentCalibration: (model, counter) => backend.recentCalibration(model, counter),
    calibrations: () => backend.calibrations(),
    addCalibrationSample: (model: string, counter: string, sample: CalibrationSample) =>
      backend.changeCalibration(model, counter, (previous) => addCalibrationSample(previous, sample, { model, counter, now: now() })),
    subscribeAttempts: (threadId, listener) => backend.subscribeAttempts(threadId, listener),
    subscribeCalibrations: (listener) => backend.subscribeCalibrations(listener),
  }
}
