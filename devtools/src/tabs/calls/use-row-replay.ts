import { replayCall, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter, type ToolSchema } from '@threadlens/core'
import { replayThreadCall } from '@threadlens/core/calls'
import { estimatedCounterById } from '@threadlens/core/internal'
import { useTokenCounter } from '@threadlens/react'
import { useMemo } from 'react'
import type { TraceRow } from '../../view-models/call-trace-rows'

type BuiltinCounter = 'o200k_base' | 'cl100k_base' | 'heuristic'
const builtIn = (id: string | undefined): BuiltinCounter | undefined =>
  id === 'o200k_base' || id === 'cl100k_base' || id === 'heuristic' ? id : undefined

/** What one row of the trace sent, rebuilt from the thread. */
export interface RowReplay {
  readonly result: ProjectionResult
  /** `recorded`: with the policy the request recorded, so exactly what was sent. */
  readonly policySource: 'recorded' | 'fallback'
  readonly policyName: string | undefined
  /** Whether the rebuilt messages match the recorded hash; `undefined` when none was recorded. */
  readonly verified: boolean | undefined
  readonly tools: readonly ToolSchema[]
  readonly counter: TokenCounter
}

export type RowReplayState =
  | { readonly status: 'none' }
  | { readonly status: 'loading' }
  /** Counted with a counter the panel does not have: core's `replayCall` with that counter rebuilds it. */
  | { readonly status: 'unavailable'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: unknown }
  | { readonly status: 'ready'; readonly replay: RowReplay }

/**
 * The counter a row replays with: the one its record names when built in; for an answered call with
 * no such record, its recorded policy's tokenizer, else the panel's.
 */
function counterFor(row: TraceRow, fallback: ContextPolicy): { readonly id: BuiltinCounter | undefined; readonly named: string } {
  if (row.kind === 'attempt') return { id: builtIn(row.attempt.record.counter), named: row.attempt.record.counter }
  const recorded = row.call.record?.counter
  const id = builtIn(recorded) ?? row.call.record?.policy?.tokenizer ?? fallback.tokenizer
  return { id, named: recorded ?? id }
}

/** Rebuilds what a row of the trace sent: an answered call from the thread, an attempt from its own record. */
export function useRowReplay(thread: Thread, row: TraceRow | undefined, fallbackPolicy: ContextPolicy): RowReplayState {
  const wanted = row === undefined ? undefined : counterFor(row, fallbackPolicy)
  // A call sent while the exact ranks loaded was counted with the estimate: replayed with it too.
  const estimate = wanted === undefined ? undefined : estimatedCounterById(wanted.named)
  const loaded = useTokenCounter(estimate === undefined ? wanted?.id : undefined)?.counter
  const counter = estimate ?? loaded
  return useMemo((): RowReplayState => {
    if (row === undefined || wanted === undefined) return { status: 'none' }
    if (wanted.id === undefined && estimate === undefined)
      return { status: 'unavailable', reason: `counted with "${wanted.named}": replay it with that counter (core's replayCall)` }
    if (counter === undefined) return { status: 'loading' }
    try {
      const replay =
        row.kind === 'call'
          ? replayThreadCall(thread, row.call, { fallbackPolicy, counter })
          : replayCall(thread.entries, row.attempt.record, { counter })
      return {
        status: 'ready',
        replay: {
          result: replay.projection,
          policySource: replay.policySource,
          policyName: replay.policy.name,
          verified: replay.verified,
          tools: replay.tools,
          counter,
        },
      }
    } catch (error) {
      return { status: 'failed', error }
    }
    // `wanted` follows from `row` and `fallbackPolicy`.
  }, [thread, row, counter, fallbackPolicy])
}
