import type { ThreadIndex } from '../entries/thread-index'
import type { ContextPolicy } from '../policy/policy'
import { REPLY_PRIMING_TOKENS } from '../tokens/token-counter'
import { HashBuilder } from '../utils/hash'
import { attachmentTokens } from '../parts/attachment-tokens'
import { summaryNeed } from './summary-need'
import type { CheckpointSegments } from './checkpoint-segments'
import { droppedRanges } from './dropped-ranges'
import type { FixedSegments } from './fixed-segments'
import type { ProjectionContext } from './projection-context'
import { reducesLater } from './reductions'
import type { UnitSelection } from './select-units'
import type { MessageInfo, NeedsSummaryReason, ProjectedMessage, ProjectionMeta, Reduction } from './types'
import { emitUnit } from './unit-messages'
import { messageInfo, projectedMessage } from './message-parts'
import { entryAt, type UnitContext } from './units'
import type { WindowPlan } from './window-plan'
import type { RecallBlock } from '../recall/recall-block'

/** The messages in order: system, memory, summary, history (oldest unit first), pending. */
export interface AssembledMessages {
  readonly messages: readonly ProjectedMessage[]
  readonly infos: readonly MessageInfo[]
  readonly historyTokens: number
}

export function assembleMessages(
  context: ProjectionContext,
  fixed: FixedSegments,
  checkpoints: CheckpointSegments,
  selection: UnitSelection,
  recall: RecallBlock | undefined,
): AssembledMessages {
  const { policy } = context.input
  const messages: ProjectedMessage[] = []
  const infos: MessageInfo[] = []
  if (policy.systemPrompt !== undefined) {
    messages.push({ role: 'system', content: policy.systemPrompt })
    infos.push({ segment: 'system', tokens: fixed.systemTokens - REPLY_PRIMING_TOKENS, seqs: [] })
  }
  if (checkpoints.memoryTokens > 0) {
    messages.push({ role: 'system', content: checkpoints.memoryText })
    infos.push({ segment: 'memory', tokens: checkpoints.memoryTokens, seqs: [] })
  }
  if (checkpoints.summaryUsed && checkpoints.summaryEntry !== undefined) {
    messages.push({ role: policy.summaryRole, content: checkpoints.summaryText })
    infos.push({ segment: 'summary', tokens: checkpoints.summaryTokens, seqs: [checkpoints.summaryEntry.seq] })
  }
  let historyTokens = 0
  for (const unit of selection.history) historyTokens += emitUnit(unit, selection.planOf(unit), context, messages, infos)
  fixed.pending.forEach((message, position) => {
    messages.push(projectedMessage(message, message.parts))
    infos.push(
      messageInfo('pending', fixed.pendingCosts[position] as number, [], { attachmentTokens: attachmentTokens(message.parts), omittedImages: [] }),
    )
  })
  // The recall block comes last: it is chosen for this question, and no later call repeats it, so it
  // never sits inside a prefix the next call could read from the provider's cache.
  if (recall !== undefined && recall.tokens > 0) {
    messages.push({ role: policy.summaryRole, content: recall.text })
    infos.push({ segment: 'recall', tokens: recall.tokens, seqs: recall.meta.seqs })
  }
  return { messages, infos, historyTokens }
}

/** Everything `meta` says about the projection: tokens, budget, each entry's fate, the cache. */
export function projectionMeta(
  context: ProjectionContext,
  fixed: FixedSegments,
  checkpoints: CheckpointSegments,
  windows: WindowPlan,
  selection: UnitSelection,
  assembled: AssembledMessages,
  recall: RecallBlock | undefined,
): ProjectionMeta {
  const { input, entries, index, firstSeq, lastSeq, budget } = context
  const { policy, counter } = input
  const { coveredFrom, coveredTo, summaryUsed, summaryEntry } = checkpoints
  const { stopReason } = selection
  const recalledSeqs = recall?.meta.seqs ?? []
  const { includedSeqs, dropped, reduced } = fatesOfSelection(context, checkpoints, selection, recalledSeqs)
  const recallTokens = recall?.tokens ?? 0

  const tokens = {
    system: fixed.systemTokens,
    memory: checkpoints.memoryTokens,
    summary: checkpoints.summaryTokens,
    history: assembled.historyTokens,
    recall: recallTokens,
    pending: fixed.pendingTokens,
    tools: fixed.toolTokens,
    total:
      fixed.systemTokens +
      checkpoints.memoryTokens +
      checkpoints.summaryTokens +
      assembled.historyTokens +
      recallTokens +
      fixed.pendingTokens +
      fixed.toolTokens,
    attachments: assembled.infos.reduce((sum, info) => sum + (info.attachmentTokens ?? 0), 0),
    estimated: !counter.exact,
  }
  const overflow = fixed.mandatoryTokens > budget
  const needsSummaryReason: NeedsSummaryReason | undefined = overflow
    ? 'overflow'
    : summaryNeed(context, checkpoints, dropped, assembled.infos, tokens.system + tokens.tools)
  const { messages, infos } = assembled
  return {
    tokens,
    budget: {
      maxInputTokens: policy.maxInputTokens,
      reserveOutputTokens: policy.reserveOutputTokens,
      input: budget,
      free: budget - tokens.total,
    },
    counter: { id: counter.id, exact: counter.exact },
    messages: infos,
    includedSeqs,
    reduced,
    dropped,
    summary: summaryUsed && summaryEntry !== undefined ? { seq: summaryEntry.seq, fromSeq: coveredFrom, toSeq: coveredTo } : undefined,
    summaryUsed,
    recall: recall?.meta,
    memory: checkpoints.memoryMeta,
    truncated: stopReason !== undefined || selection.pinnedDroppedByBudget,
    needsSummary: needsSummaryReason !== undefined,
    needsSummaryReason,
    overflow,
    unresolvedToolCalls: unresolvedCalls(context, index),
    pinnedSeqs: [...index.pinnedSeqs].filter((pinned) => pinned >= firstSeq && pinned <= lastSeq).sort((a, b) => a - b),
    prefixKey: prefixKeyOf(messages, infos, fixed.anchor?.seq, policy),
    cache: {
      anthropic: policy.cache.anthropic,
      ttl: policy.cache.ttl,
      key: policy.cache.openAIKey === false ? undefined : (policy.cache.openAIKey ?? entries[0]?.threadId),
      openAI: policy.cache.openAI,
      reductionFloor: windows.reductionFloor,
      previousReductionFloor: windows.previousReductionFloor,
      reducesLater: reducesLater(policy),
    },
    cacheWindowStart: stopReason === 'cache-window' ? windows.cacheStart : undefined,
    entryCount: entries.length,
    firstSeq,
  }
}

/** The fates the selection decided, as `meta` stores them: the seqs sent, the ranges dropped (and why), the entries sent shortened (`entryFates` in fates.ts reads them back per entry). */
function fatesOfSelection(
  context: ProjectionContext,
  checkpoints: CheckpointSegments,
  selection: UnitSelection,
  recalledSeqs: readonly number[],
): Pick<ProjectionMeta, 'includedSeqs' | 'dropped' | 'reduced'> {
  const includedSeqs: number[] = []
  for (const [entrySeq, fate] of selection.explicit) if (fate === 'included') includedSeqs.push(entrySeq)
  includedSeqs.sort((a, b) => a - b)
  const dropped = droppedRanges(context, checkpoints, selection, includedSeqs, recalledSeqs)
  const reduced: { seq: number; how: Reduction }[] = []
  for (const unit of selection.history) {
    const plan = selection.planOf(unit)
    if (!plan.omitTools) for (const reduction of plan.reductions) reduced.push(reduction)
  }
  reduced.sort((a, b) => a.seq - b.seq)
  return { includedSeqs, dropped, reduced }
}

/**
 * What decides the bytes of a request's stable prefix. Entries are immutable and history is
 * contiguous from its start, so two requests of one thread render every message they share
 * identically when they agree on: the fixed segments, the entry history starts at, and which
 * earlier messages were shortened or answered synthetically. Equal keys on consecutive calls mean
 * the later request repeats the earlier one byte for byte up to the earlier one's latest user
 * message: the part a provider can serve from its prompt cache.
 */
function prefixKeyOf(
  messages: readonly ProjectedMessage[],
  infos: readonly MessageInfo[],
  anchorSeq: number | undefined,
  policy: ContextPolicy,
): string {
  const hash = new HashBuilder()
  hash.add(policy.summaryRole).add(policy.summaryPrefix).add(policy.interruptedResultText)
  let historyStarted = false
  for (let position = 0; position < messages.length; position++) {
    const info = infos[position] as MessageInfo
    // Pending messages and the recall block (chosen for this question) are not repeated by later calls.
    if (info.segment === 'pending' || info.segment === 'recall') break
    if (anchorSeq !== undefined && info.seqs[0] === anchorSeq) break
    const message = messages[position] as ProjectedMessage
    if (info.segment !== 'history') {
      hash.add(info.segment).add(message.role)
      if (info.seqs.length === 0) hash.add(message.content)
      for (const seq of info.seqs) hash.add(seq)
      continue
    }
    if (!historyStarted) {
      historyStarted = true
      hash.add('start')
      for (const seq of info.seqs) hash.add(seq)
    }
    if (info.reduced !== undefined || info.synthetic !== undefined) {
      hash.add(info.reduced ?? info.synthetic ?? '')
      for (const seq of info.seqs) hash.add(seq)
    }
  }
  return hash.hex()
}

function unresolvedCalls(context: UnitContext, index: ThreadIndex): { toolCallId: string; name: string; seq: number }[] {
  const calls: { toolCallId: string; name: string; seq: number }[] = []
  for (const toolCallId of index.unresolvedToolCallIds) {
    const seq = index.callSeqByToolCallId.get(toolCallId) as number
    const entry = entryAt(context, seq)
    if (entry?.kind === 'tool_call') calls.push({ toolCallId, name: entry.payload.name, seq })
  }
  return calls.sort((a, b) => a.seq - b.seq)
}
