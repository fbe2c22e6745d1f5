import { truncateHeadTail } from '../text/truncate'
import type { Entry, ToolResultEntry } from '../entries/entry'
import { toolResultText } from '../entries/entry-text'
import { resultContentHash } from '../entries/thread-index'
import type { ContextPolicy } from '../policy/policy'
import { MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from '../tokens/token-counter'
import { utf8Length } from '../utils/utf8-length'
import { memo } from '../utils/memo'
import type { Reduction } from './types'
import type { ProjectionContext } from './projection-context'
import { entryAt, unitSeqs, type Unit } from './units'

/** How one unit is projected: whole, or with its tool traffic reduced. */
export interface UnitPlan {
  /** `boundary` isolation: the unit's calls and results are left out; its text stays. */
  readonly omitTools: boolean
  /** Per result (same order as `unit.results`): replacement text, or `undefined` to send it as is. */
  readonly resultTexts: readonly (string | undefined)[]
  readonly reductions: readonly { readonly seq: number; readonly how: Reduction }[]
}

const whole: UnitPlan = { omitTools: false, resultTexts: [], reductions: [] }

/** Replacement texts are derived from immutable entries: compute each once per entry and variant. */
const textCache = new WeakMap<Entry, Map<string, string>>()
const tokenCache = new WeakMap<Entry, Map<string, Map<string, number>>>()

function cachedText(entry: Entry, variant: string, make: () => string): string {
  return memo(
    memo(textCache, entry, () => new Map()),
    variant,
    make,
  )
}

/** Tokens of a reduced tool message: cached per entry, variant and counter. */
export function reducedResultTokens(entry: Entry, text: string, counter: TokenCounter): number {
  const byText = memo(
    memo(tokenCache, entry, () => new Map()),
    counter.id,
    () => new Map<string, number>(),
  )
  // Keyed by the cached text itself: the same string object each time, so lookups stay cheap.
  return memo(byText, text, () => MESSAGE_OVERHEAD_TOKENS + counter.count(text))
}

/** Whether the policy rewrites a history message's bytes once it leaves the protected zone. */
export function reducesLater(policy: ContextPolicy): boolean {
  return policy.toolTrace !== 'transparent' || policy.dedupeToolResults || policy.pruneToolOutputsOverTokens !== undefined
}

/**
 * The plan for a unit. Only tool units outside the protected zone (starting before `protectedFrom`,
 * the reduction floor) are reduced, and never pinned ones or ones with an unresolved call: those
 * are what the model is still working with.
 */
export function planUnit(unit: Unit, context: ProjectionContext, protectedFrom: number): UnitPlan {
  const { policy, counter } = context.input
  const { pinnedSeqs } = context.index
  if (unit.calls.length === 0 || unit.start >= protectedFrom) return whole
  if (!reducesLater(policy)) return whole
  if (unit.results.some((result) => result === undefined)) return whole
  if (unitSeqs(unit).some((seq) => pinnedSeqs.has(seq))) return whole
  const results = unit.results as readonly ToolResultEntry[]

  if (policy.toolTrace === 'boundary') {
    return { omitTools: true, resultTexts: [], reductions: [] }
  }

  const resultTexts: (string | undefined)[] = []
  const reductions: { seq: number; how: Reduction }[] = []
  results.forEach((result, position) => {
    const call = unit.calls[position]
    const toolCallId = call?.refs.toolCallId as string
    const duplicateOf = policy.dedupeToolResults ? newerDuplicate(result, context) : undefined
    if (duplicateOf !== undefined) {
      resultTexts.push(
        cachedText(
          result,
          `dedupe:${duplicateOf.seq}`,
          () => `[same output as the later call ${duplicateOf.refs.toolCallId as string} (entry #${duplicateOf.seq})]`,
        ),
      )
      reductions.push({ seq: result.seq, how: 'deduped' })
    } else if (policy.toolTrace === 'masked') {
      resultTexts.push(
        cachedText(result, 'masked', () => {
          const size = utf8Length(toolResultText(result.payload))
          return `[tool result hidden: ${result.payload.name}, call ${toolCallId}, ${size} bytes${result.payload.error === undefined ? '' : ', error'}]`
        }),
      )
      reductions.push({ seq: result.seq, how: 'masked' })
    } else if (policy.pruneToolOutputsOverTokens !== undefined && counter.countEntry(result) > policy.pruneToolOutputsOverTokens) {
      const variant = `prune:${policy.pruneKeepLines}:${policy.pruneKeepBytes}`
      resultTexts.push(
        cachedText(
          result,
          variant,
          () => truncateHeadTail(toolResultText(result.payload), { maxLines: policy.pruneKeepLines, maxBytes: policy.pruneKeepBytes }).content,
        ),
      )
      reductions.push({ seq: result.seq, how: 'pruned' })
    } else {
      resultTexts.push(undefined)
    }
  })
  return reductions.length === 0 ? whole : { omitTools: false, resultTexts, reductions }
}

/** The newest result with the same tool, arguments and output, if it is newer than this one. */
function newerDuplicate(result: ToolResultEntry, context: ProjectionContext): ToolResultEntry | undefined {
  const callHash = context.index.callHashByToolCallId.get(result.refs.toolCallId as string)
  if (callHash === undefined) return undefined
  const newestSeq = context.index.newestResultSeqByContentHash.get(resultContentHash(callHash, result.payload))
  if (newestSeq === undefined || newestSeq <= result.seq) return undefined
  const newest = entryAt(context, newestSeq)
  if (newest?.kind !== 'tool_result') return undefined
  // Hashes can collide: confirm tool, arguments and output really are the same.
  const newestCallSeq = context.index.callSeqByToolCallId.get(newest.refs.toolCallId as string)
  const callSeq = context.index.callSeqByToolCallId.get(result.refs.toolCallId as string)
  const newestCall = newestCallSeq === undefined ? undefined : entryAt(context, newestCallSeq)
  const call = callSeq === undefined ? undefined : entryAt(context, callSeq)
  if (newestCall?.kind !== 'tool_call' || call?.kind !== 'tool_call') return undefined
  const same =
    newestCall.payload.name === call.payload.name &&
    JSON.stringify(newestCall.payload.arguments) === JSON.stringify(call.payload.arguments) &&
    toolResultText(newest.payload) === toolResultText(result.payload) &&
    (newest.payload.error === undefined) === (result.payload.error === undefined)
  return same ? newest : undefined
}
