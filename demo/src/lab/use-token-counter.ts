import { createTokenCounter, type TokenCounter } from '@threadlens/core'
import { type EncodingName } from '@threadlens/core/internal'
import { useEffect, useState } from 'react'

export type CounterChoice = EncodingName | 'heuristic'

export type CounterState =
  | { readonly status: 'loading'; readonly id: CounterChoice }
  | { readonly status: 'ready'; readonly id: CounterChoice; readonly counter: TokenCounter }
  | { readonly status: 'error'; readonly id: CounterChoice; readonly message: string }

/** Loads a counter lazily (the exact encodings are a dynamic import of about 1 MB). */
export function useTokenCounter(id: CounterChoice): CounterState {
  const [state, setState] = useState<CounterState>({ status: 'loading', id })
  useEffect(() => {
    let active = true
    setState({ status: 'loading', id })
    createTokenCounter(id).then(
      (counter) => {
        if (active) setState({ status: 'ready', id, counter })
      },
      (error: unknown) => {
        if (active) setState({ status: 'error', id, message: error instanceof Error ? error.message : String(error) })
      },
    )
    return () => {
      active = false
    }
  }, [id])
  // Until the effect runs for a new id, the old counter must not be reported as this one.
  return state.id === id ? state : { status: 'loading', id }
}
