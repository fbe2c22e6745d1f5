import { useEffect, useState } from 'react'

// Model prices (for a call's cost) come with core's model table, about 9 KB gzip with the encoding
// names it maps: loaded when a view needs a cost, or at the visitor's first interaction with the
// page, never with the panel's first paint.

type ModelsModule = typeof import('@threadlens/core/models')

let loaded: ModelsModule | undefined
let loading: Promise<ModelsModule> | undefined

/** Loads the model table once; a failed load can be tried again. */
export function loadModelPrices(): Promise<ModelsModule> {
  loading ??= import('@threadlens/core/models').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** `estimateCost` of core's model table once it has loaded; `undefined` before (and for a model it does not know). */
export function costIfKnown(usage: Parameters<ModelsModule['estimateCost']>[0], model: string): number | undefined {
  if (loaded === undefined) return undefined
  try {
    return loaded.estimateCost(usage, model)
  } catch {
    return undefined
  }
}

const interactions = ['pointerdown', 'keydown', 'touchstart'] as const

/**
 * Whether model prices have loaded, re-rendering the caller when they do. `now` loads them at once
 * (a view opened for its figures); otherwise at the visitor's first interaction with the page.
 */
export function useModelPrices(now = false): boolean {
  const [ready, setReady] = useState(loaded !== undefined)
  useEffect(() => {
    if (ready) return undefined
    let current = true
    const load = (): void =>
      void loadModelPrices().then(
        () => current && setReady(true),
        () => undefined,
      )
    if (now) {
      load()
      return () => {
        current = false
      }
    }
    const once = (): void => {
      cancel()
      load()
    }
    const cancel = (): void => {
      for (const type of interactions) globalThis.removeEventListener(type, once, true)
    }
    for (const type of interactions) globalThis.addEventListener(type, once, { capture: true, passive: true })
    return () => {
      current = false
      cancel()
    }
  }, [ready, now])
  return ready
}
