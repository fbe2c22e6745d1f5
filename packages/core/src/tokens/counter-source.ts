import { estimatedTokenCounter } from './estimated-counter'
import { counterOutcome, pendingCounterId, type BuiltinCounterId, type TokenCounter } from './token-counter'

/** A counter, or the promise of one (`createTokenCounter()` unawaited): every API taking a counter takes either. */
export type CounterSource = TokenCounter | PromiseLike<TokenCounter>

const settled = new WeakMap<PromiseLike<TokenCounter>, TokenCounter>()
const watched = new WeakMap<PromiseLike<TokenCounter>, Promise<TokenCounter>>()

function isPromiseLike(source: CounterSource): source is PromiseLike<TokenCounter> {
  return typeof (source as PromiseLike<TokenCounter>).then === 'function'
}

function watch(source: PromiseLike<TokenCounter>): Promise<TokenCounter> {
  let promise = watched.get(source)
  if (promise === undefined) {
    // A `createTokenCounter` promise is watched without starting its load (awaiting it would).
    promise = (counterOutcome(source) ?? Promise.resolve(source)).then((counter) => {
      settled.set(source, counter)
      return counter
    })
    // A failed load leaves the estimate in use; `counterReady` reports the failure.
    promise.catch(() => undefined)
    watched.set(source, promise)
  }
  return promise
}

/**
 * The counter to count with now: `source` itself, what its promise resolved to, or, while it is
 * pending (or if it failed), `estimatedTokenCounter` for the encoding it will load (`fallback`, e.g.
 * the policy's tokenizer, when that cannot be told). Never waits.
 */
export function counterNow(source: CounterSource, fallback: BuiltinCounterId = 'o200k_base'): TokenCounter {
  if (!isPromiseLike(source)) return source
  const known = settled.get(source)
  if (known !== undefined) return known
  void watch(source)
  const id = pendingCounterId(source) ?? fallback
  return estimatedTokenCounter(id === 'heuristic' ? 'o200k_base' : id)
}

/** Resolves with the counter `source` stands for (at once for a counter), starting its load: for work that needs exact counts now. */
export function counterReady(source: CounterSource): Promise<TokenCounter> {
  return Promise.resolve(source)
}

/** Resolves when `source` settles, without starting a load that waits for the first paint: for views that redraw then. */
export function counterSettled(source: CounterSource): Promise<TokenCounter> {
  return isPromiseLike(source) ? watch(source) : Promise.resolve(source)
}
