import { type Entry } from '@threadlens/core'
import { calibrationSampleOf, type CallAttempt, type TokenCalibration } from '@threadlens/core/calls'
import { callLogOnBackend } from '../../calls/call-log-on-backend'
import { byStart, type CallLogEvent, type CallLogStore } from '../../calls/call-log-store'

/** The call log in memory, for the fallback stores and tests: the same API, nothing survives a reload. */
export function createMemoryCallLog(
  options: { readonly now?: () => number } = {},
): CallLogStore & { deleteThread(threadId: string): void; addFromEntries(entries: readonly Entry[]): void } {
  const attemptsByThread = new Map<string, Map<string, CallAttempt>>()
  const calibrations = new Map<string, TokenCalibration>()
  const attemptListeners = new Set<{ readonly threadId: string; readonly listener: (event: CallLogEvent) => void }>()
  const calibrationListeners = new Set<(event: CallLogEvent) => void>()
  const listOf = (threadId: string): readonly CallAttempt[] => [...(attemptsByThread.get(threadId)?.values() ?? [])].sort(byStart)
  const allCalibrations = (): readonly TokenCalibration[] => [...calibrations.values()].sort((a, b) => b.updatedAt - a.updatedAt)
  const notifyAttempts = (threadId: string): void => {
    for (const each of attemptListeners)
      if (each.threadId === threadId) each.listener({ type: 'attempts-update', threadId, attempts: listOf(threadId) })
  }
  const change = (model: string, counter: string, apply: (previous: TokenCalibration | undefined) => TokenCalibration): TokenCalibration => {
    const key = `${model}\u0000${counter}`
    const next = apply(calibrations.get(key))
    calibrations.set(key, next)
    for (const listener of calibrationListeners) listener({ type: 'calibrations-update', calibrations: allCalibrations() })
    return next
  }
  const log = callLogOnBackend(
    {
      async putAttempt(attempt, trim) {
        let rows = attemptsByThread.get(attempt.threadId)
        if (rows === undefined) attemptsByThread.set(attempt.threadId, (rows = new Map()))
        rows.set(attempt.id, attempt)
        for (const old of trim(listOf(attempt.threadId))) rows.delete(old.id)
        notifyAttempts(attempt.threadId)
      },
      attempts: async (threadId) => listOf(threadId),
      calibration: async (model, counter) => calibrations.get(`${model}\u0000${counter}`),
      recentCalibration: (model, counter) => calibrations.get(`${model}\u0000${counter}`),
      calibrations: async () => allCalibrations(),
      changeCalibration: async (model, counter, apply) => change(model, counter, apply),
      subscribeAttempts(threadId, listener) {
        const entry = { threadId, listener }
        attemptListeners.add(entry)
        listener({ type: 'attempts-update', threadId, attempts: listOf(threadId) })
        return () => attemptListeners.delete(entry)
      },
      subscribeCalibrations(listener) {
        calibrationListeners.add(listener)
        listener({ type: 'calibrations-update', calibrations: allCalibrations() })
        return () => calibrationListeners.delete(listener)
      },
    },
    options,
  )
  return {
    ...log,
    /** What the memory thread store calls on every append (as the IndexedDB store does inside its transaction). */
    addFromEntries(entries) {
      for (const entry of entries) {
        const found = entry.meta?.call === undefined ? undefined : calibrationSampleOf(entry.meta.call)
        if (found !== undefined) void log.addCalibrationSample(found.model, found.counter, found.sample)
      }
    },
    deleteThread(threadId) {
      if (attemptsByThread.delete(threadId)) notifyAttempts(threadId)
    },
  }
}
