import type { Entry, EntryKind } from '../entries/entry'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries, type ThreadIndex } from '../entries/thread-index'
import type { ProjectInput } from './types'
import type { UnitContext } from './units'

/** What every phase of `project()` reads: the thread's window and what the policy lets in. */
export interface ProjectionContext {
  readonly input: ProjectInput
  readonly entries: readonly Entry[]
  readonly index: ThreadIndex
  readonly firstSeq: number
  readonly lastSeq: number
  /** Entries below this seq are hidden (reset) or not loaded. */
  readonly visibleFrom: number
  readonly include: ReadonlySet<EntryKind>
  readonly units: UnitContext
  /** Tokens the policy allows for input: `maxInputTokens − reserveOutputTokens`. */
  readonly budget: number
}

const includeSets = new WeakMap<readonly EntryKind[], ReadonlySet<EntryKind>>()

function includeSetOf(kinds: readonly EntryKind[]): ReadonlySet<EntryKind> {
  let set = includeSets.get(kinds)
  if (set === undefined) {
    set = new Set(kinds)
    includeSets.set(kinds, set)
  }
  return set
}

function sourceOf(thread: ThreadSource | readonly Entry[]): ThreadSource {
  if (Array.isArray(thread)) {
    const entries = thread as readonly Entry[]
    return { entries, index: indexOfEntries(entries) }
  }
  return thread as ThreadSource
}

export function projectionContext(input: ProjectInput): ProjectionContext {
  const { policy } = input
  const { entries, index } = sourceOf(input.thread)
  const firstSeq = entries[0]?.seq ?? 0
  const include = includeSetOf(policy.includeKinds)
  const visibleFrom = Math.max(firstSeq, index.resetSeq + 1)
  return {
    input,
    entries,
    index,
    firstSeq,
    lastSeq: firstSeq + entries.length - 1,
    visibleFrom,
    include,
    units: { entries, index, firstSeq, visibleFrom, toolsIncluded: include.has('tool_call') && include.has('tool_result') },
    budget: policy.maxInputTokens - policy.reserveOutputTokens,
  }
}

/** The newest of `seqs` (ascending) if it is visible. */
export function latestVisible(seqs: readonly number[], visibleFrom: number): number | undefined {
  const last = seqs[seqs.length - 1]
  return last !== undefined && last >= visibleFrom ? last : undefined
}
