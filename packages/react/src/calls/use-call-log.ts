import type { CallLogSnapshot } from '@threadlens/client'
import type { CallAttempt, TokenCalibration } from '@threadlens/core/calls'
import { useSyncExternalStore } from 'react'
import { useOptionalThreadlensClient } from '../client/threadlens-context'

const emptyAttempts: CallLogSnapshot<readonly CallAttempt[]> = Object.freeze({
  available: false,
  value: Object.freeze([]) as readonly CallAttempt[],
  error: undefined,
})
const emptyCalibrations: CallLogSnapshot<readonly TokenCalibration[]> = Object.freeze({
  available: false,
  value: Object.freeze([]) as readonly TokenCalibration[],
  error: undefined,
})

const noSubscription = (): (() => void) => () => undefined

/**
 * A thread's failed, retried and aborted model-call attempts from the client's call log (`createThreadlensClient({ threads, calls })`),
 * live across tabs. Answered calls are on the thread itself (`threadCalls`); core's `callTrace` puts both together.
 */
export function useCallAttempts(threadId: string): CallLogSnapshot<readonly CallAttempt[]> {
  const client = useOptionalThreadlensClient()
  const live = client?.calls === undefined ? undefined : client.callAttempts(threadId)
  return useSyncExternalStore(live?.subscribe ?? noSubscription, live?.getSnapshot ?? (() => emptyAttempts), () => emptyAttempts)
}

/** Every model's token calibration from the client's call log, newest first, live across tabs. */
export function useCalibrations(): CallLogSnapshot<readonly TokenCalibration[]> {
  const client = useOptionalThreadlensClient()
  const live = client?.calls === undefined ? undefined : client.calibrations()
  return useSyncExternalStore(live?.subscribe ?? noSubscription, live?.getSnapshot ?? (() => emptyCalibrations), () => emptyCalibrations)
}
