import { createStore, type StoreApi } from 'zustand/vanilla'

/**
 * A zustand store that starts its source on the first subscriber and stops it after the last
 * leaves. Its contract is the one a session follows too (core's `SessionSource`):
 * `subscribe(listener)` and `getSnapshot()`, what `useSyncExternalStore` takes. `getState` and
 * `getInitialState` are the same snapshot under zustand's names, for zustand's `useStore`.
 */
export abstract class RefcountedStore<TState> {
  protected readonly store: StoreApi<TState>
  #subscribers = 0
  #onIdleChange: ((idle: boolean) => void) | undefined

  constructor(initial: TState) {
    this.store = createStore<TState>()(() => initial)
  }

  readonly getSnapshot = (): TState => this.store.getState()
  readonly getState = this.getSnapshot
  readonly getInitialState = (): TState => this.store.getInitialState()

  readonly subscribe = (listener: (state: TState, previous: TState) => void): (() => void) => {
    const unsubscribe = this.store.subscribe(listener)
    this.#subscribers++
    if (this.#subscribers === 1) {
      this.#onIdleChange?.(false)
      this.start()
    }
    let subscribed = true
    return () => {
      if (!subscribed) return
      subscribed = false
      unsubscribe()
      this.#subscribers--
      if (this.#subscribers === 0) {
        this.stop()
        this.#onIdleChange?.(true)
      }
    }
  }

  /** Number of current subscribers (for tests and devtools). */
  get subscriberCount(): number {
    return this.#subscribers
  }

  /**
   * For the owner that caches this view (the client): told `true` when the last subscriber leaves
   * and `false` when one comes back. One listener; a new one replaces it.
   */
  onIdleChange(listener: (idle: boolean) => void): void {
    this.#onIdleChange = listener
  }

  protected abstract start(): void
  protected abstract stop(): void
}
