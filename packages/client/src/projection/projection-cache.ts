import {
  project,
  type ContextPolicy,
  type Memory,
  type PendingMessage,
  type ProjectionResult,
  type Thread,
  type TokenCounter,
  type ToolSchema,
} from '@threadlens/core'
import type { RecallSearcher } from '@threadlens/core/recall'

export interface ProjectOptions {
  /** Messages not yet in the thread (the user's message being typed or sent). Default: none. */
  readonly pending?: readonly PendingMessage[]
  /** Tool schemas the request carries; their tokens come out of the budget. Default: none. */
  readonly tools?: readonly ToolSchema[]
  /** The memory segment: text, or a `Memory` rendered by the policy's `memorySpaces`. Default: none. */
  readonly memory?: string | Memory
  /**
   * Where `policy.recall` searches the thread's older entries: `createRecallIndex()` from
   * `@threadlens/core/recall`, one per thread (keep it as long as the thread is shown). Default: none,
   * and a policy with recall skips it (`meta.recall.skipped: 'no-index'`).
   */
  readonly recall?: RecallSearcher
}

export type ProjectionOutcome = { readonly ok: true; readonly result: ProjectionResult } | { readonly ok: false; readonly error: unknown }

const policyKeys = new WeakMap<ContextPolicy, string>()
const toolKeys = new WeakMap<readonly ToolSchema[], string>()
// A searcher has no value to compare: each one is its own key.
const recallKeys = new WeakMap<RecallSearcher, number>()
let recallCount = 0

function recallKey(recall: RecallSearcher | undefined): string {
  if (recall === undefined) return ''
  let key = recallKeys.get(recall)
  if (key === undefined) recallKeys.set(recall, (key = ++recallCount))
  return String(key)
}

/** Equal policies give equal keys, so a policy rebuilt on every render still hits the cache. */
export function policyKey(policy: ContextPolicy): string {
  let key = policyKeys.get(policy)
  if (key === undefined) policyKeys.set(policy, (key = JSON.stringify(policy)))
  return key
}

function optionsKey(counter: TokenCounter, options: ProjectOptions): string {
  let tools = ''
  if (options.tools !== undefined) {
    // By content, like the policy: a tools array rebuilt on every render (or every session
    // snapshot) must not project the same thread again.
    tools = toolKeys.get(options.tools) ?? ''
    if (tools === '') toolKeys.set(options.tools, (tools = JSON.stringify(options.tools)))
  }
  // A memory's id and rev identify its content: every write bumps the rev.
  const memory = typeof options.memory === 'object' ? `memory:${options.memory.id}:${options.memory.rev}` : `text:${options.memory ?? ''}`
  return `${counter.id}\u0000${JSON.stringify(options.pending ?? [])}\u0000${tools}\u0000${memory}\u0000${recallKey(options.recall)}`
}

// Keyed by the thread snapshot: each version is its own object, so old versions fall away with it.
const cache = new WeakMap<Thread, Map<string, ProjectionOutcome>>()
const perThreadLimit = 16

/**
 * `project()` memoised by thread version (the snapshot object) + policy + counter + options, all
 * but the thread compared by value: the same inputs return the same result object, so every
 * reader of one commit shares one projection and components that hold it do not re-render.
 */
export function cachedProjection(thread: Thread, policy: ContextPolicy, counter: TokenCounter, options: ProjectOptions = {}): ProjectionOutcome {
  let byKey = cache.get(thread)
  if (byKey === undefined) cache.set(thread, (byKey = new Map()))
  const key = `${policyKey(policy)}\u0000${optionsKey(counter, options)}`
  let outcome = byKey.get(key)
  if (outcome !== undefined) return outcome
  try {
    outcome = {
      ok: true,
      result: project({
        thread,
        policy,
        counter,
        ...(options.pending === undefined ? {} : { pending: options.pending }),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(options.memory === undefined ? {} : { memory: options.memory }),
        ...(options.recall === undefined ? {} : { recall: options.recall }),
      }),
    }
  } catch (error) {
    outcome = { ok: false, error }
  }
  if (byKey.size >= perThreadLimit) byKey.delete(byKey.keys().next().value as string)
  byKey.set(key, outcome)
  return outcome
}
