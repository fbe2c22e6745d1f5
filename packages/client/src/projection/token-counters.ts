import { createTokenCounter, type TokenCounter } from '@threadlens/core'
import { counterOutcome, loadedTokenCounter, type BuiltinCounterId } from '@threadlens/core/internal'
import { createStore } from 'zustand/vanilla'

export type CounterSnapshot =
  | { readonly status: 'loading'; readonly id: BuiltinCounterId; readonly counter: undefined; readonly error: undefined }
  | { readonly status: 'ready'; readonly id: BuiltinCounterId; readonly counter: TokenCounter; readonly error: undefined }
  | { readonly status: 'error'; readonly id: BuiltinCounterId; readonly counter: undefined; readonly error: unknown }

type CounterStates = Readonly<Partial<Record<BuiltinCounterId, CounterSnapshot>>>

// Counters are page-global in core (one encoding download per page), so their states are too:
// one zustand store, the subscribe mechanism every live view of this package uses.
const states = createStore<CounterStates>()(() => ({}))

function set(snapshot: CounterSnapshot): void {
  states.setState({ [snapshot.id]: snapshot })
}

/**
 * The built-in token counters (`o200k_base`, `cl100k_base`, `heuristic`) as live state: `snapshot(id)`
 * starts loading a counter on first use (exact encodings are a dynamic import of about 0.4–1 MB
 * gzip, once per page) and returns the same object until its state changes; `subscribe` hears
 * every change of any counter.
 */
export const tokenCounters = {
  snapshot(id: BuiltinCounterId): CounterSnapshot {
    const known = states.getState()[id]
    if (known !== undefined) return known
    const loaded = loadedTokenCounter(id)
    if (loaded !== undefined) {
      const ready: CounterSnapshot = { status: 'ready', id, counter: loaded, error: undefined }
      set(ready)
      return ready
    }
    const loading: CounterSnapshot = { status: 'loading', id, counter: undefined, error: undefined }
    set(loading)
    // Watched without starting the load: it starts once the page has painted, or when awaited.
    const created = createTokenCounter(id)
    ;(counterOutcome(created) ?? created).then(
      (counter) => set({ status: 'ready', id, counter, error: undefined }),
      (error: unknown) => set({ status: 'error', id, counter: undefined, error }),
    )
    return loading
  },
  subscribe(listener: () => void): () => void {
    return states.subscribe(() => listener())
  },
}
