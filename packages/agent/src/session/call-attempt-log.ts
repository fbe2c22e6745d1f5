import type { ProjectionResult, TokenCounter } from '@threadlens/core'
import { calibrationVerdict, maxAttemptErrorLength, type CallAttempt, type CallLog, type Usage } from '@threadlens/core/calls'
import type { SessionEvent } from './session-events'

/** The model's calibration after a call's counts were added (by the store, with the reply); says whether an exact counter is off. */
export async function calibrationEvent(
  log: CallLog | undefined,
  model: string,
  counter: TokenCounter,
  projection: ProjectionResult,
  usage: Usage,
): Promise<SessionEvent | undefined> {
  const local = projection.meta.tokens.total
  if (log === undefined || local <= 0 || usage.inputTokens <= 0) return undefined
  try {
    // The thread store added this call's sample in the reply's own transaction; read what it made.
    const calibration = log.recentCalibration?.(model, counter.id) ?? (await log.calibration(model, counter.id))
    if (calibration === undefined) return undefined
    const verdict = calibrationVerdict(calibration, { exact: counter.exact, defaultMargin: 0 })
    return { type: 'calibration-update', model: calibration.model, counter: calibration.counter, calibration, mismatch: verdict.mismatch }
  } catch (error) {
    console.warn('[threadlens] the token calibration could not be saved; the session goes on:', error)
    return undefined
  }
}

/** The error of an attempt as the record keeps it: class, status, and the message (providers' are scrubbed of keys already), clipped. */
export function attemptErrorOf(error: unknown): NonNullable<CallAttempt['error']> {
  const name = error instanceof Error ? error.name || 'Error' : typeof error
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { status?: unknown } | null)?.status
  return {
    name: name.slice(0, 128),
    message: message.slice(0, maxAttemptErrorLength),
    ...(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599 ? { status } : {}),
  }
}
