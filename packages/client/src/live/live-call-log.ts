import type { CallLogEvent, CallLogStore } from '@threadlens/store'
import { RefcountedStore } from './refcounted-store'

/** What the call log holds for a view: `available: false` when the client was given no call log. */
export interface CallLogSnapshot<TValue> {
  readonly available: boolean
  readonly value: TValue
  readonly error: unknown
}

/**
 * Follows one view of the call log (a thread's attempts, or every calibration) across writes from
 * every tab. Without a call log it stays `available: false` and listens to nothing.
 */
export class LiveCallLog<TValue> extends RefcountedStore<CallLogSnapshot<TValue>> {
  readonly #log: CallLogStore | undefined
  readonly #listen: (log: CallLogStore, onEvent: (event: CallLogEvent) => void) => () => void
  readonly #pick: (event: CallLogEvent) => TValue | undefined
  #stopListening: (() => void) | undefined

  constructor(
    log: CallLogStore | undefined,
    empty: TValue,
    listen: (log: CallLogStore, onEvent: (event: CallLogEvent) => void) => () => void,
    pick: (event: CallLogEvent) => TValue | undefined,
  ) {
    super({ available: log !== undefined, value: empty, error: undefined })
    this.#log = log
    this.#listen = listen
    this.#pick = pick
  }

  protected start(): void {
    if (this.#log === undefined) return
    this.#stopListening = this.#listen(this.#log, (event) => {
      if (event.type === 'storage-fail') {
        this.store.setState({ error: event.error })
        return
      }
      const value = this.#pick(event)
      if (value !== undefined) this.store.setState({ available: true, value, error: undefined })
    })
  }

  protected stop(): void {
    this.#stopListening?.()
    this.#stopListening = undefined
  }
}
