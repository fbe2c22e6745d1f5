import { useEffect, useState } from 'react'
import { lazyModule, onFirstInteraction } from './lazy-module'

// Model prices (for a call's cost) come with core's model table, about 9 KB gzip with the encoding
// names it maps: loaded when a view needs a cost, or at the visitor's first interaction with the
// page, never with the panel's first paint.

type ModelsModule = typeof import('@threadlens/core/models')

const models = lazyModule(() => import('@threadlens/core/models'))

/** `estimateCost` of core's model table once it has loaded; `undefined` before (and for a model it does not know). */
export function costIfKnown(usage: Parameters<ModelsModule['estimateCost']>[0], model: string): number | undefined {
  if (models.loaded === undefined) return undefined
  try {
    return models.loaded.estimateCost(usage, model)
  } catch {
    return undefined
  }
}

/**
 * Whether model prices have loaded, re-rendering the caller when they do. `now` loads them at once
 * (a view opened for its figures); otherwise at the visitor's first interaction with the page.
 */
export function useModelPrices(now = false): boolean {
  const [ready, setReady] = useState(models.loaded !== undefined)
  useEffect(() => {
    if (ready) return undefined
    let current = true
    const load = (): void =>
      void models.load().then(
        () => current && setReady(true),
        () => undefined,
      )
    const cancel = now ? undefined : onFirstInteraction(load)
    if (now) load()
    return () => {
      current = false
      cancel?.()
    }
  }, [ready, now])
  return ready
}
