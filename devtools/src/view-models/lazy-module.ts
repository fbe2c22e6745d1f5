// Code the panel loads on first need, and the moment a page first needs more than its first screen.

/** A module loaded once on first `load()` (a failed load can be tried again); `loaded` once it has. */
export interface LazyModule<T> {
  readonly loaded: T | undefined
  load(): Promise<T>
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loaded: T | undefined
  let loading: Promise<T> | undefined
  return {
    get loaded() {
      return loaded
    },
    load() {
      loading ??= importer().then(
        (module) => (loaded = module),
        (error: unknown) => {
          loading = undefined
          throw error
        },
      )
      return loading
    },
  }
}

// A press, a key or a tap anywhere on the page: until one, a panel open at page load downloads only
// what its first screen shows (an app's first screen stays as light as it was).
const interactions = ['pointerdown', 'keydown', 'touchstart'] as const

/** Calls `callback` at the visitor's first interaction with the page; returns a cancel. */
export function onFirstInteraction(callback: () => void): () => void {
  const once = (): void => {
    cancel()
    callback()
  }
  const cancel = (): void => {
    for (const type of interactions) globalThis.removeEventListener(type, once, true)
  }
  for (const type of interactions) globalThis.addEventListener(type, once, { capture: true, passive: true })
  return cancel
}
