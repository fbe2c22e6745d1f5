import type { CallAttempt, TokenCalibration } from '@threadlens/core/calls'
import type { CallLogEvent, CallLogStore } from '@threadlens/store'
import { useSyncExternalStore } from 'react'
import { useOptionalThreadlensClient } from '../client/threadlens-context'

/** What the call log holds for a view: `available: false` when the client was given no call log. */
export interface CallLogSnapshot<T> {
  readonly available: boolean
  readonly value: T
  readonly error: unknown
}

interface LiveValue<T> {
  snapshot: CallLogSnapshot<T>
  readonly listeners: Set<() => void>
  stop: (() => void) | undefined
  readonly start: () => void
}

const emptyAttempts: CallLogSnapshot<readonly CallAttempt[]> = Object.freeze({ available: false, value: Object.freeze([]) as readonly CallAttempt[], error: undefined })
const emptyCalibrations: CallLogSnapshot<readonly TokenCalibration[]> = Object.freeze({ available: false, value: Object.freeze([]) as readonly TokenCalibration[], error: undefined })

// One subscription per call log and key, shared by every component that reads it; stopped with its last reader.
const views = new WeakMap<CallLogStore, Map<string, LiveValue<unknown>>>()

function liveValue<T>(log: CallLogStore, key: string, initial: T, start: (onEvent: (event: CallLogEvent) => void) => () => void, pick: (event: CallLogEvent) => T | undefined): LiveValue<T> {
  let byKey = views.get(log)
  if (byKey === undefined) views.set(log, (byKey = new Map()))
  let live = byKey.get(key) as LiveValue<T> | undefined
  if (live === undefined) {
    const created: LiveValue<T> = {
      snapshot: { available: true, value: initial, error: undefined },
      listeners: new Set(),
      stop: undefined,
      start: () => {
        created.stop = start((event) => {
          if (event.type === 'storage-fail') created.snapshot = { ...created.snapshot, error: event.error }
          else {
            const value = pick(event)
            if (value === undefined) return
            created.snapshot = { available: true, value, error: undefined }
          }
          for (const listener of created.listeners) listener()
        })
      },
    }
    live = created
    byKey.set(key, live as LiveValue<unknown>)
  }
  return live
}

const subscribers = new WeakMap<LiveValue<unknown>, (listener: () => void) => () => void>()

/** A stable subscribe function per view, so React does not resubscribe on every render. */
function subscribeTo<T>(live: LiveValue<T>): (listener: () => void) => () => void {
  const known = subscribers.get(live as LiveValue<unknown>)
  if (known !== undefined) return known
  const subscribe = (listener: () => void): (() => void) => {
    live.listeners.add(listener)
    if (live.stop === undefined) live.start()
    return () => {
      live.listeners.delete(listener)
      if (live.listeners.size === 0) {
        live.stop?.()
        live.stop = undefined
      }
    }
  }
  subscribers.set(live as LiveValue<unknown>, subscribe)
  return subscribe
}

const noSubscription = (): (() => void) => () => undefined

/**
 * A thread's failed, retried and aborted model-call attempts from the client's call log (`createThreadlensClient({ threads, calls })`),
 * live across tabs. Answered calls are on the thread itself (`threadCalls`); core's `callTrace` puts both together.
 */
export function useCallAttempts(threadId: string): CallLogSnapshot<readonly CallAttempt[]> {
  const log = useOptionalThreadlensClient()?.calls
  const live =
    log === undefined
      ? undefined
      : liveValue<readonly CallAttempt[]>(log, `attempts:${threadId}`, [], (onEvent) => log.subscribeAttempts(threadId, onEvent), (event) =>
          event.type === 'attempts-update' ? event.attempts : undefined,
        )
  return useSyncExternalStore(live === undefined ? noSubscription : subscribeTo(live), () => live?.snapshot ?? emptyAttempts, () => emptyAttempts)
}

/** Every model's token calibration from the client's call log, newest first, live across tabs. */
export function useCalibrations(): CallLogSnapshot<readonly TokenCalibration[]> {
  const log = useOptionalThreadlensClient()?.calls
  const live =
    log === undefined
      ? undefined
      : liveValue<readonly TokenCalibration[]>(log, 'calibrations', [], (onEvent) => log.subscribeCalibrations(onEvent), (event) =>
          event.type === 'calibrations-update' ? event.calibrations : undefined,
        )
  return useSyncExternalStore(live === undefined ? noSubscription : subscribeTo(live), () => live?.snapshot ?? emptyCalibrations, () => emptyCalibrations)
}
