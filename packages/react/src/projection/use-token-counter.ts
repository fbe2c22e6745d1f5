import { tokenCounters, type CounterSnapshot } from '@threadlens/client'
import type { BuiltinCounterId } from '@threadlens/core/internal'
import { useSyncExternalStore } from 'react'

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
