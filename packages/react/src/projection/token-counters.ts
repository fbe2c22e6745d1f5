import { createTokenCounter, type TokenCounter } from '@threadlens/core'
import { loadedTokenCounter, type BuiltinCounterId } from '@threadlens/core/internal'
import { useSyncExternalStore } from 'react'

export type CounterSnapshot =
  | { readonly status: 'loading'; readonly id: BuiltinCounterId; readonly counter: undefined; readonly error: undefined }
  | { readonly status: 'ready'; readonly id: BuiltinCounterId; readonly counter: TokenCounter; readonly error: undefined }
  | { readonly status: 'error'; readonly id: BuiltinCounterId; readonly counter: undefined; readonly error: unknown }

// Counters are page-global in core (one encoding download per page), so their states are too.
const snapshots = new Map<BuiltinCounterId, CounterSnapshot>()
const listeners = new Set<() => void>()

function notify(): void {
  for (const listener of [...listeners]) listener()
}

function snapshotOf(id: BuiltinCounterId): CounterSnapshot {
  let snapshot = snapshots.get(id)
  if (snapshot !== undefined) return snapshot
  const loaded = loadedTokenCounter(id)
  if (loaded !== undefined) {
    snapshot = { status: 'ready', id, counter: loaded, error: undefined }
    snapshots.set(id, snapshot)
    return snapshot
  }
  snapshot = { status: 'loading', id, counter: undefined, error: undefined }
  snapshots.set(id, snapshot)
  createTokenCounter(id).then(
    (counter) => {
      snapshots.set(id, { status: 'ready', id, counter, error: undefined })
      notify()
    },
    (error: unknown) => {
      snapshots.set(id, { status: 'error', id, counter: undefined, error })
      notify()
    },
  )
  return snapshot
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * A built-in token counter, loaded on first use (exact encodings are a dynamic import of about
 * 0.4–1 MB gzip, once per page). Returns the same snapshot object until its state changes.
 */
export function useTokenCounter(id: BuiltinCounterId): CounterSnapshot
/** With `undefined`, loads nothing and returns `undefined` (for a caller that brings its own counter). */
export function useTokenCounter(id: BuiltinCounterId | undefined): CounterSnapshot | undefined
export function useTokenCounter(id: BuiltinCounterId | undefined): CounterSnapshot | undefined {
  const get = () => (id === undefined ? undefined : snapshotOf(id))
  return useSyncExternalStore(subscribe, get, get)
}
