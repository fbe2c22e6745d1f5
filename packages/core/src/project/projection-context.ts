import type { Entry, EntryKind, MessageEntry } from '../entries/entry'
import { sentParts, type SentParts } from './message-parts'
import { turnWindowFloor } from './turns'
import type { ThreadSource } from '../entries/thread'
import { indexOfEntries } from '../entries/thread-index'
import type { ProjectInput } from './types'
import type { UnitContext } from './units'
import { memo } from '../utils/memo'

/**
 * What every phase of `project()` reads: the thread's window and what the policy lets in (the
 * `UnitContext` history units are built from, and more).
 */
export interface ProjectionContext extends UnitContext {
  readonly input: ProjectInput
  readonly lastSeq: number
  readonly include: ReadonlySet<EntryKind>
  /** A pending user message opens a turn of its own (and takes the place of the thread's latest). */
  readonly pendingHasUser: boolean
  /** Tokens the policy allows for input: `maxInputTokens − reserveOutputTokens`. */
  readonly budget: number
  /** What a message sends of its parts: images before the newest `keepImagesTurns` turns are left out (pinned ones are sent). */
  readonly sentOf: (message: MessageEntry) => SentParts
  /** A message's cost as sent: its counted tokens less the images left out. */
  readonly messageCost: (message: MessageEntry) => number
}

const includeSets = new WeakMap<readonly EntryKind[], ReadonlySet<EntryKind>>()

function includeSetOf(kinds: readonly EntryKind[]): ReadonlySet<EntryKind> {
  return memo(includeSets, kinds, () => new Set(kinds))
}

export function sourceOf(thread: ThreadSource | readonly Entry[]): ThreadSource {
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
  const pendingHasUser = (input.pending ?? []).some((message) => message.role === 'user')
  const imageFloor =
    policy.keepImagesTurns === undefined
      ? Number.NEGATIVE_INFINITY
      : turnWindowFloor(policy.keepImagesTurns, index.userSeqs, visibleFrom, pendingHasUser)
  const sentBySeq = new Map<number, SentParts>()
  const sentOf = (message: MessageEntry): SentParts =>
    memo(sentBySeq, message.seq, () => sentParts(message, message.seq < imageFloor && !index.pinnedSeqs.has(message.seq)))
  return {
    input,
    entries,
    index,
    firstSeq,
    lastSeq: firstSeq + entries.length - 1,
    visibleFrom,
    include,
    pendingHasUser,
    toolsIncluded: include.has('tool_call') && include.has('tool_result'),
    budget: policy.maxInputTokens - policy.reserveOutputTokens,
    sentOf,
    messageCost: (message) => input.counter.countEntry(message) - sentOf(message).omittedTokens,
  }
}

/** The newest of `seqs` (ascending) if it is visible. */
export function latestVisible(seqs: readonly number[], visibleFrom: number): number | undefined {
  const last = seqs[seqs.length - 1]
  return last !== undefined && last >= visibleFrom ? last : undefined
}
