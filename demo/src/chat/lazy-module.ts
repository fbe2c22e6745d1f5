import { useEffect, useState } from 'react'
import { onFirstInteraction } from './counting/first-interaction'

/** A chunk the chat loads when it needs it. */
export interface LazyModule<T> {
  /** Loads it once (later calls share the first load); a failed load is forgotten, so the next call tries again. */
  load(): Promise<T>
  /** The module once loaded, else `undefined`. */
  loaded(): T | undefined
  /** Calls `listener` when it has loaded, whoever asked for it; returns an unsubscribe. */
  subscribe(listener: (module: T) => void): () => void
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined
  let loaded: T | undefined
  const listeners = new Set<(module: T) => void>()
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module
          for (const listener of [...listeners]) listener(module)
          return module
        },
        (error: unknown) => {
          loading = undefined
          throw error
        },
      )
      return loading
    },
    loaded: () => loaded,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/**
 * The module once loaded, `undefined` until then; `failed` once a load started here has failed.
 * It loads at once when `needed`, else at the visitor's first interaction with the page (a press,
 * a key, a tap), or when anything else loads it first: a visit that only reads does not download it.
 */
export function useLazyModule<T>(module: LazyModule<T>, needed: boolean): { readonly loaded: T | undefined; readonly failed: boolean } {
  const [loaded, setLoaded] = useState(module.loaded)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (loaded !== undefined) return undefined
    // Loaded between the render and this effect: nothing will tell.
    const already = module.loaded()
    if (already !== undefined) {
      setLoaded(() => already)
      return undefined
    }
    let current = true
    const unsubscribe = module.subscribe((value) => setLoaded(() => value))
    const load = () =>
      void module.load().then(
        (value) => current && setLoaded(() => value),
        () => current && setFailed(true),
      )
    let cancel: (() => void) | undefined
    if (needed) {
      setFailed(false)
      load()
    } else cancel = onFirstInteraction(load)
    return () => {
      current = false
      unsubscribe()
      cancel?.()
    }
  }, [module, loaded, needed])
  return { loaded, failed }
}
