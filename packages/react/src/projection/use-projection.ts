import type { ContextPolicy, ProjectionResult, Thread, TokenCounter } from '@threadlens/core'
import { useStore } from 'zustand'
import type { ThreadSnapshot } from '@threadlens/client'
import { useThreadlensClient } from '../client/threadlens-context'
import { cachedProjection, type ProjectionOutcome, type ProjectOptions } from '@threadlens/client'
import { estimatedTokenCounter } from '@threadlens/core/internal'
import type { CounterSource } from '@threadlens/core/models'
import { useCounterSource, useTokenCounter } from './use-token-counter'

export interface UseProjectionOptions extends ProjectOptions {
  /**
   * The counter to use, or its promise (`createTokenCounter()` unawaited): until it resolves the
   * projection counts with the estimate (`result.meta.tokens.estimated`) and is redone when it does.
   * Default: the built-in counter named by `policy.tokenizer`, loaded on first use, likewise.
   */
  readonly counter?: CounterSource
}

/** A thread's projection under a policy; the same object until the thread, policy or options change. */
export interface ProjectionSnapshot {
  /**
   * `loading` while the thread loads; `error` when it or the counter failed or `project` threw.
   * While an exact counter loads the projection is `ready`, counted with the estimate.
   */
  readonly status: 'loading' | 'ready' | 'error'
  readonly threadId: string
  /** The thread version this projection was computed from. */
  readonly thread: Thread | undefined
  readonly result: ProjectionResult | undefined
  readonly counter: TokenCounter | undefined
  readonly error: unknown
}

const byOutcome = new WeakMap<ProjectionOutcome, ProjectionSnapshot>()
// Keyed by the thread snapshot, remembering the counter error each entry was built for: comparing
// with the entry's own `error` would never match when the error came from the thread, giving a new
// snapshot on every read (an endless render loop for a deleted or failed thread).
const byThreadSnapshot = new WeakMap<ThreadSnapshot, { readonly counterError: unknown; readonly snapshot: ProjectionSnapshot }>()

function waiting(snapshot: ThreadSnapshot, counterError: unknown): ProjectionSnapshot {
  const entry = byThreadSnapshot.get(snapshot)
  let cached = entry !== undefined && entry.counterError === counterError ? entry.snapshot : undefined
  if (cached === undefined) {
    const failed = snapshot.status === 'error' || snapshot.status === 'deleted' || counterError !== undefined
    cached = {
      status: failed ? 'error' : 'loading',
      threadId: snapshot.threadId,
      thread: snapshot.thread,
      result: undefined,
      counter: undefined,
      error:
        counterError ??
        snapshot.error ??
        (snapshot.status === 'deleted' ? new Error(`[threadlens] thread ${snapshot.threadId} was deleted`) : undefined),
    }
    byThreadSnapshot.set(snapshot, { counterError, snapshot: cached })
  }
  return cached
}

function projected(snapshot: ThreadSnapshot, thread: Thread, counter: TokenCounter, outcome: ProjectionOutcome): ProjectionSnapshot {
  let cached = byOutcome.get(outcome)
  if (cached === undefined) {
    cached = outcome.ok
      ? { status: 'ready', threadId: snapshot.threadId, thread, result: outcome.result, counter, error: undefined }
      : { status: 'error', threadId: snapshot.threadId, thread, result: undefined, counter, error: outcome.error }
    byOutcome.set(outcome, cached)
  }
  return cached
}

const identity = <T>(value: T): T => value

/**
 * The projection of a stored thread under `policy`, live: recomputed once per thread version
 * and policy (memoised), and the component re-renders only when the selected value changes.
 * Nothing is written: try any policy.
 *
 * @example const { result } = useProjection(threadId, presets.shortContext(), { pending: [{ role: 'user', content: draft }] })
 */
export function useProjection(threadId: string, policy: ContextPolicy, options?: UseProjectionOptions): ProjectionSnapshot
export function useProjection<TSelected>(
  threadId: string,
  policy: ContextPolicy,
  options: UseProjectionOptions | undefined,
  selector: (snapshot: ProjectionSnapshot) => TSelected,
): TSelected
export function useProjection<TSelected>(
  threadId: string,
  policy: ContextPolicy,
  options: UseProjectionOptions = {},
  selector: (snapshot: ProjectionSnapshot) => TSelected = identity as (snapshot: ProjectionSnapshot) => TSelected,
): TSelected {
  const live = useThreadlensClient().thread(threadId)
  const builtIn = useTokenCounter(options.counter === undefined ? policy.tokenizer : undefined)
  const given = useCounterSource(options.counter)
  const counter =
    given ??
    builtIn?.counter ??
    (builtIn?.status === 'loading' && policy.tokenizer !== 'heuristic' ? estimatedTokenCounter(policy.tokenizer) : undefined)
  const counterError = builtIn?.status === 'error' ? builtIn.error : undefined
  return useStore(live, (snapshot) => {
    const thread = snapshot.thread
    if (snapshot.status !== 'ready' || thread === undefined || counter === undefined) return selector(waiting(snapshot, counterError))
    return selector(projected(snapshot, thread, counter, cachedProjection(thread, policy, counter, options)))
  })
}
