import { assembleMessages, projectionMeta } from './projection-meta'
import { fitCheckpoints, type CheckpointSegments } from './checkpoint-segments'
import { measureFixedSegments, type FixedSegments } from './fixed-segments'
import { projectionContext, type ProjectionContext } from './projection-context'
import type { RecallBlock } from '../recall/recall-block'
import { recallPhaseKey } from './recall-types'
import { selectUnits, type UnitSelection } from './select-units'
import type { ProjectInput, ProjectionResult } from './types'
import { planWindows, type WindowPlan } from './window-plan'
import { entryAt } from './units'

/**
 * Projects a thread into the messages a model sees now, under a policy, with meta explaining
 * every decision. Pure: no I/O, no clock, no randomness; inputs are not mutated; the same input
 * gives byte-identical output. Its cost grows with the window, not with the thread.
 *
 * A pipeline of phases, each with a typed result: the fixed segments (system, tools, pending,
 * latest user message), the summary and memory checkpoints, the cache and reduction windows,
 * the choice of history units, recall, the messages, and `meta`.
 */
export function project(input: ProjectInput): ProjectionResult {
  const context = projectionContext(input)
  const fixed = measureFixedSegments(context)
  const phase = input.recall?.[recallPhaseKey]
  const recallPlan = phase?.plan(context, fixed)
  const plain = (): HistoryWalk => {
    const walk = walkHistory(context, fixed, 0, false)
    // The summary stands in only for what does not fit: used when the window leaves covered entries out.
    return summaryNeeded(context, walk.checkpoints, walk.selection) ? walkHistory(context, fixed, 0, true) : walk
  }
  let walk = plain()
  let recall: RecallBlock | undefined = input.policy.recall !== undefined && phase === undefined ? withoutIndex : undefined
  if (phase !== undefined && recallPlan !== undefined) {
    // Everything fits: nothing to recall. Else recall keeps its share, and the window the rest.
    if (walk.selection.stopReason !== undefined && recallPlan.skipped === undefined) {
      walk = walkHistory(context, fixed, recallPlan.reserve, false)
      if (summaryNeeded(context, walk.checkpoints, walk.selection)) walk = walkHistory(context, fixed, recallPlan.reserve, true)
    }
    const room = walk.checkpoints.remaining - walk.selection.used
    recall = phase.select(context, fixed, walk.selection, recallPlan, room)
    if (recall.tokens === 0) {
      // Recall found nothing to send: the request is the policy's without recall.
      if (recallPlan.skipped === undefined && walk.selection.stopReason !== undefined) walk = plain()
    } else if (walk.selection.stopReason === 'budget' && room - recall.tokens > 0) {
      // The window takes back the room recall did not use, and recalled entries next to it.
      const selection = selectUnits(context, fixed, walk.checkpoints, walk.windows, { reserve: recall.tokens, recalled: recall.lines })
      recall = phase.without(context, recall, selection.takenFromRecall, walk.checkpoints.remaining - selection.used)
      walk = { ...walk, selection }
    }
  }
  const { checkpoints, windows, selection } = walk
  const assembled = assembleMessages(context, fixed, checkpoints, selection, recall)
  return { messages: assembled.messages, meta: projectionMeta(context, fixed, checkpoints, windows, selection, assembled, recall) }
}

/** Recall asked for with no searcher given: it steps aside and the window gets its room. */
const withoutIndex: RecallBlock = {
  text: '',
  tokens: 0,
  meta: { query: [], budget: 0, tokens: 0, seqs: [], hits: [], skipped: 'no-index' },
  lines: new Map(),
  groups: [],
}

interface HistoryWalk {
  readonly checkpoints: CheckpointSegments
  readonly windows: WindowPlan
  readonly selection: UnitSelection
}

function walkHistory(
  context: ProjectionContext,
  fixed: FixedSegments,
  recallReserve: number | ((room: number) => number),
  withSummary: boolean,
): HistoryWalk {
  const checkpoints = fitCheckpoints(context, context.budget - fixed.mandatoryTokens, withSummary)
  const reserve = typeof recallReserve === 'number' ? recallReserve : recallReserve(checkpoints.remaining)
  const windows = planWindows(context, fixed, checkpoints, reserve)
  const selection = selectUnits(context, fixed, checkpoints, windows, { reserve, recalled: new Map() })
  return { checkpoints, windows, selection }
}

/** Whether a walk without the summary left out, for lack of room, an entry the newest summary covers. */
export function summaryNeeded(context: ProjectionContext, { summaryEntry, summaryUsed }: CheckpointSegments, selection: UnitSelection): boolean {
  if (summaryEntry === undefined || summaryUsed || selection.stopReason === undefined) return false
  const { include, toolsIncluded } = context
  const from = Math.max(context.visibleFrom, summaryEntry.payload.fromSeq)
  // Newest first: the first covered entry below the window usually answers at once.
  for (let seq = Math.min(summaryEntry.payload.toSeq, context.lastSeq); seq >= from; seq--) {
    const fate = selection.explicit.get(seq)
    if (fate === 'budget' || fate === 'window' || fate === 'cache-window') return true
    if (fate !== undefined) continue
    const entry = entryAt(context, seq)
    // Not loaded (a windowed read stops where no projection reaches): left out, as the walk stopped above it.
    if (entry === undefined) return seq < context.firstSeq
    if (entry.kind === 'summary' || entry.kind === 'context_op' || !include.has(entry.kind)) continue
    if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && !toolsIncluded) continue
    return true
  }
  return false
}
