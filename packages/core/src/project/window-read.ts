import type { Entry } from '../entries/entry'
import { inputBudget, type ContextPolicy } from '../policy/policy'
import { MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'

/** The summary checkpoint a projection of the whole thread would use. */
export interface SummaryFact {
  readonly seq: number
  readonly fromSeq: number
  readonly toSeq: number
}

/**
 * What a windowed read must know about a thread before reading any entry. A store keeps these
 * beside the thread and folds every append into them (`foldThreadFacts`), in the same write.
 */
export interface ThreadFacts {
  /** Seq of the newest `reset` op, or -1: nothing before it is ever projected. */
  readonly resetSeq: number
  /** Seq of the newest user message, or -1 (the projection's anchor). */
  readonly lastUserSeq: number
  /** The newest summary that covers something after the newest reset, or `null`. */
  readonly summary: SummaryFact | null
  /** Seqs pinned now (by `meta.pinned` or pin/unpin ops), ascending; pins hidden by a reset are dropped. */
  readonly pinnedSeqs: readonly number[]
}

export const emptyThreadFacts: ThreadFacts = { resetSeq: -1, lastUserSeq: -1, summary: null, pinnedSeqs: [] }

/**
 * Folds entries (the next ones in seq order) into the facts by the projector's own rules: its
 * thread index (`indexEntry`) for resets, user messages and pins, and the summary checkpoint it
 * picks (`newestSummary`: the newest summary that covers something after the newest reset).
 */
export function foldThreadFacts(facts: ThreadFacts, entries: readonly Entry[]): ThreadFacts {
  let { resetSeq, lastUserSeq, summary } = facts
  const pinned = new Set(facts.pinnedSeqs)
  for (const entry of entries) {
    if (entry.meta?.pinned === true) pinned.add(entry.seq)
    switch (entry.kind) {
      case 'message':
        if (entry.payload.role === 'user') lastUserSeq = entry.seq
        break
      case 'summary':
        // A summary that only covers hidden entries is skipped by the projector; the older one stays in use.
        if (entry.payload.toSeq > resetSeq) summary = { seq: entry.seq, fromSeq: entry.payload.fromSeq, toSeq: entry.payload.toSeq }
        break
      case 'context_op':
        if (entry.payload.op === 'reset') {
          resetSeq = entry.seq
          summary = null
          for (const seq of pinned) if (seq < resetSeq) pinned.delete(seq)
        } else if (entry.payload.op === 'pin') {
          const target = entry.payload.target as number
          if (target > resetSeq) pinned.add(target)
        } else {
          pinned.delete(entry.payload.target as number)
        }
        break
      default:
        break
    }
  }
  return { resetSeq, lastUserSeq, summary, pinnedSeqs: [...pinned].sort((a, b) => a - b) }
}

/**
 * How far back a projection under a policy can reach into a thread, decided while a store reads
 * the thread newest first: the projector's cost model, kept here so a store only does the reading.
 *
 * Why the window is enough: the projector walks units newest first and stops at the first that
 * does not fit the budget; `add` sums, per entry, no more than the projector would spend on it, so
 * once the sum exceeds the budget the projector cannot get past the window. A summary stands in
 * only for what does not fit, so the entries it covers are walked like the rest and the same sum
 * holds with or without it. A cache-friendly policy's window moves in chunks, so the read holds one chunk
 * beyond the budget. What the projector looks at wherever it is (the latest user message, pins,
 * the summary in use) comes from `requiredFrom`; whole tool-call units are the store's lookups.
 */
export class WindowRead {
  /** Nothing below this seq is ever projected (the newest entry is always kept). */
  readonly floor: number
  /** The summary checkpoint the projector may use, if any (read wherever it is). */
  readonly summary: SummaryFact | null
  /** Tokens the walk must exceed: the input budget, plus a chunk for a cache-friendly window. */
  readonly reach: number
  readonly #facts: ThreadFacts
  readonly #costOf: (entry: Entry) => number
  #lowest: number
  #spent = 0

  constructor(policy: ContextPolicy, counter: TokenCounter, facts: ThreadFacts, lastSeq: number) {
    this.#facts = facts
    this.floor = Math.min(facts.resetSeq + 1, lastSeq)
    this.#lowest = lastSeq + 1
    const budget = inputBudget(policy)
    this.reach = policy.cacheFriendly ? budget + Math.floor(budget * (1 - policy.cacheLowWaterRatio)) : budget
    const include = new Set(policy.includeKinds)
    this.summary = include.has('summary') && facts.summary !== null && facts.summary.toSeq >= this.floor ? facts.summary : null
    this.#costOf = projectedCostModel(policy, counter, include)
  }

  /** Seq of the oldest entry added so far (one past the thread's last seq before the first). */
  get lowest(): number {
    return this.#lowest
  }

  /** Tokens counted so far: at most what the projector would spend on the entries added. */
  get spent(): number {
    return this.#spent
  }

  /** Whether the walk must go on: entries remain above the floor and the window is not yet provably enough. */
  get needsMore(): boolean {
    return this.#lowest > this.floor && !this.enough()
  }

  /** Adds the next entry of the walk (newest first); `true` once the window is provably enough. */
  add(entry: Entry): boolean {
    this.#lowest = entry.seq
    const cost = this.#costOf(entry)
    this.#spent += cost
    return this.enough()
  }

  /** Whether no projection under the policy can reach past the entries added so far. */
  enough(): boolean {
    // A summary stands in only for what does not fit: the projector walks the entries it covers like
    // the rest, so with or without it the walk cannot get past what exceeds the budget.
    return this.#spent > this.reach
  }

  /** Where the window must start once the walk stopped at `start`: the latest user message, pins and the summary are always looked at. */
  requiredFrom(start: number): number {
    let required = start
    const { lastUserSeq, pinnedSeqs } = this.#facts
    if (lastUserSeq >= this.floor) required = Math.min(required, lastUserSeq)
    for (const pinned of pinnedSeqs) if (pinned >= this.floor) required = Math.min(required, pinned)
    // The summary and the last entry it covers: a window starting after that would not see it apply.
    if (this.summary !== null) required = Math.min(required, this.summary.toSeq, this.summary.seq)
    return required
  }
}

/**
 * Per entry, no more than the projector would spend on it: a tool call is counted with its result
 * (met first, walking newest first). Outside the last turns boundary isolation sends a tool unit
 * not at all, so its entries count as nothing; masking, pruning and dedupe keep the call and
 * shorten the result to a text that still costs at least its message overhead.
 */
function projectedCostModel(policy: ContextPolicy, counter: TokenCounter, include: ReadonlySet<string>): (entry: Entry) => number {
  const toolsIncluded = include.has('tool_call') && include.has('tool_result')
  const toolsMayVanish = policy.toolTrace === 'boundary'
  const resultsMayShrink = policy.toolTrace === 'masked' || policy.dedupeToolResults || policy.pruneToolOutputsOverTokens !== undefined
  const pendingResultTokens = new Map<string, number>()
  return (entry: Entry): number => {
    switch (entry.kind) {
      case 'message':
        return include.has('message') ? counter.countEntry(entry) : 0
      case 'tool_result':
        // Counted with its call: a result whose call is hidden is an orphan and costs nothing.
        if (toolsIncluded && !toolsMayVanish)
          pendingResultTokens.set(entry.refs.toolCallId as string, resultsMayShrink ? MESSAGE_OVERHEAD_TOKENS : counter.countEntry(entry))
        return 0
      case 'tool_call': {
        if (!toolsIncluded || toolsMayVanish) return 0
        const toolCallId = entry.refs.toolCallId as string
        const result = pendingResultTokens.get(toolCallId)
        if (result !== undefined) {
          pendingResultTokens.delete(toolCallId)
          return counter.countEntry(entry) + result
        }
        // Unresolved: dropped calls cost nothing, interrupted ones at least the call.
        return policy.unresolvedToolCalls === 'drop' ? 0 : counter.countEntry(entry)
      }
      default:
        return 0
    }
  }
}
