import type { ThreadSource } from '../entries/thread'
import { project } from '../project/project'
import type { ProjectInput, ProjectionResult } from '../project/types'
import { chooseMemoryText, memoryWindowKey, type HeldMemory, type MemoryRefreshReason } from './memory-hold'

export interface HeldMemoryProjection {
  readonly projection: ProjectionResult
  /** The memory text the projection carries; `''` for none. */
  readonly memory: string
  /** Why it is the held text (`held`) or the fresh one. */
  readonly reason: MemoryRefreshReason | 'held'
  /** What to hold from now on, if this projection is sent (the same object when the held text is sent again). */
  readonly hold: HeldMemory
}

/**
 * `project()` with memory hysteresis, as a session makes each call: the held memory text again when
 * `chooseMemoryText` keeps it and the prompt's stable base it was rendered under still stands
 * (`memoryWindowKey`), else `fresh` (reason `window-moved` when the base moved: everything after the
 * memory is rewritten anyway). Pure: the caller keeps `hold` when it sends the projection.
 */
export function projectHoldingMemory(
  input: Omit<ProjectInput, 'thread' | 'memory'> & {
    readonly thread: ThreadSource
    /** The memory as it is now, rendered (`requestMemoryText`); `''` for none. */
    readonly fresh: string
    readonly held: HeldMemory | undefined
    /** Visible user turns the call is made at (see `chooseMemoryText`). */
    readonly turn?: number
  },
): HeldMemoryProjection {
  const { fresh, held, turn, ...projectInput } = input
  const choice = chooseMemoryText({
    fresh,
    held,
    thread: input.thread,
    policy: input.policy,
    counter: input.counter,
    ...(turn === undefined ? {} : { turn }),
  })
  const run = (text: string): ProjectionResult => project({ ...projectInput, ...(text === '' ? {} : { memory: text }) })
  const projection = run(choice.text)
  if (choice.held && held !== undefined && memoryWindowKey(projection.meta) === held.windowKey)
    return { projection, memory: choice.text, reason: 'held', hold: held }
  // Held provisionally, but the window moved: the fresh text, projected again.
  const sent = choice.held ? run(fresh) : projection
  return {
    projection: sent,
    memory: fresh,
    reason: choice.held ? 'window-moved' : choice.reason,
    hold: { text: fresh, turn: choice.turn, windowKey: memoryWindowKey(sent.meta) },
  }
}
