import type { ProjectedMessage, ProjectionResult } from '@threadlens/core'

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

const messageTexts = new WeakMap<ProjectedMessage, string>()

function messageText(message: ProjectedMessage): string {
  let text = messageTexts.get(message)
  if (text === undefined) messageTexts.set(message, (text = JSON.stringify(message)))
  return text
}

function difference(from: readonly number[], without: ReadonlySet<number>): number[] {
  return from.filter((seq) => !without.has(seq))
}

export function compareProjections(before: ProjectionResult, after: ProjectionResult): ProjectionDiff {
  const beforeSeqs = new Set(before.meta.includedSeqs)
  const afterSeqs = new Set(after.meta.includedSeqs)
  let shared = 0
  let sharedTokens = 0
  const limit = Math.min(before.messages.length, after.messages.length)
  while (shared < limit && messageText(before.messages[shared] as ProjectedMessage) === messageText(after.messages[shared] as ProjectedMessage)) {
    sharedTokens += after.meta.messages[shared]?.tokens ?? 0
    shared++
  }
  return {
    entered: difference(after.meta.includedSeqs, beforeSeqs),
    left: difference(before.meta.includedSeqs, afterSeqs),
    tokenDelta: after.meta.tokens.total - before.meta.tokens.total,
    messageDelta: after.messages.length - before.messages.length,
    sharedPrefixMessages: shared,
    sharedPrefixTokens: sharedTokens,
    prefixStable: shared === before.messages.length && before.messages.length > 0,
    samePrefixKey: before.meta.prefixKey === after.meta.prefixKey,
  }
}
