import { tokenCounters, type CounterSnapshot } from '@threadlens/client'
import type { TokenCounter } from '@threadlens/core'
import { counterNow, counterSettled, type BuiltinCounterId } from '@threadlens/core/internal'
import type { CounterSource } from '@threadlens/core/models'
import { useCallback, useSyncExternalStore } from 'react'

/**
 * A built-in token counter, loaded on first use (exact encodings are a dynamic import of about
 * 0.4–1 MB gzip, once per page). Returns the same snapshot object until its state changes.
 */
export function useTokenCounter(id: BuiltinCounterId): CounterSnapshot
/** With `undefined`, loads nothing and returns `undefined` (for a caller that brings its own counter). */
export function useTokenCounter(id: BuiltinCounterId | undefined): CounterSnapshot | undefined
export function useTokenCounter(id: BuiltinCounterId | undefined): CounterSnapshot | undefined {
  const get = () => (id === undefined ? undefined : tokenCounters.snapshot(id))
  return useSyncExternalStore(tokenCounters.subscribe, get, get)
}

/**
 * The counter to count with now for `source`: itself, what its promise resolved to, or the
 * estimate while it is pending (see `counterNow`); re-renders once when the promise settles.
 */
export function useCounterSource(source: CounterSource | undefined): TokenCounter | undefined {
  const subscribe = useCallback(
    (listener: () => void) => {
      let listening = true
      if (source !== undefined) {
        counterSettled(source).then(
          () => listening && listener(),
          () => listening && listener(),
        )
      }
      return () => {
        listening = false
      }
    },
    [source],
  )
  const get = () => (source === undefined ? undefined : counterNow(source))
  return useSyncExternalStore(subscribe, get, get)
}
