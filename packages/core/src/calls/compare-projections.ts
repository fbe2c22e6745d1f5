import { sharedPrefix } from '../caching/shared-prefix'
import type { ProjectionResult } from '../project/types'

/** What changed between two projections (two consecutive calls, or a policy before and after). */
export interface ProjectionDiff {
  /** Seqs present in `after` and not in `before`, ascending. */
  readonly entered: readonly number[]
  /** Seqs present in `before` and not in `after`, ascending. */
  readonly left: readonly number[]
  /** `after.total - before.total`. */
  readonly tokenDelta: number
  readonly messageDelta: number
  /** Leading messages byte-identical in both requests: what a provider's prompt cache can reuse. */
  readonly sharedPrefixMessages: number
  /** Tokens of those shared leading messages (as counted in `after`). */
  readonly sharedPrefixTokens: number
  /** Every message of `before` starts `after` unchanged: the whole earlier request stays cacheable. */
  readonly prefixStable: boolean
  /** `meta.prefixKey` is the same (the prefix before the latest user message did not change). */
  readonly samePrefixKey: boolean
}

function difference(from: readonly number[], without: ReadonlySet<number>): number[] {
  return from.filter((seq) => !without.has(seq))
}

export function compareProjections(before: ProjectionResult, after: ProjectionResult): ProjectionDiff {
  const beforeSeqs = new Set(before.meta.includedSeqs)
  const afterSeqs = new Set(after.meta.includedSeqs)
  const shared = sharedPrefix(before, after)
  return {
    entered: difference(after.meta.includedSeqs, beforeSeqs),
    left: difference(before.meta.includedSeqs, afterSeqs),
    tokenDelta: after.meta.tokens.total - before.meta.tokens.total,
    messageDelta: after.messages.length - before.messages.length,
    sharedPrefixMessages: shared.messages,
    sharedPrefixTokens: shared.tokens,
    prefixStable: shared.messages === before.messages.length && before.messages.length > 0,
    samePrefixKey: before.meta.prefixKey === after.meta.prefixKey,
  }
}
