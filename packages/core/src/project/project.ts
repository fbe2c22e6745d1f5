import { assembleMessages, projectionMeta } from './projection-meta'
import { fitCheckpoints } from './checkpoint-segments'
import { measureFixedSegments } from './fixed-segments'
import { projectionContext } from './projection-context'
import { selectUnits } from './select-units'
import type { ProjectInput, ProjectionResult } from './types'
import { planWindows } from './window-plan'

/**
 * Projects a thread into the messages a model sees now, under a policy, with meta explaining
 * every decision. Pure: no I/O, no clock, no randomness; inputs are not mutated; the same input
 * gives byte-identical output. Its cost grows with the window, not with the thread.
 *
 * A pipeline of phases, each with a typed result: the fixed segments (system, tools, pending,
 * latest user message), the summary and memory checkpoints, the cache and reduction windows,
 * the choice of history units, the messages, and `meta`.
 */
export function project(input: ProjectInput): ProjectionResult {
  const context = projectionContext(input)
  const fixed = measureFixedSegments(context)
  const checkpoints = fitCheckpoints(context, context.budget - fixed.mandatoryTokens)
  const windows = planWindows(context, fixed, checkpoints)
  const selection = selectUnits(context, fixed, checkpoints, windows)
  const assembled = assembleMessages(context, fixed, checkpoints, selection)
  return { messages: assembled.messages, meta: projectionMeta(context, fixed, checkpoints, windows, selection, assembled) }
}
