import { callStep, type CallStepContext } from './call-step'
import type { ContextFitting } from './context-fitting'
import { ModelCallBudget, maxModelCalls } from './context-recovery'
import type { SessionEvent } from './session-events'
import type { RequestState, SessionInternals } from './session-internals'
import type { ToolRuns } from './tool-runs'

/**
 * The model calls of one request, as a plain loop: no call path re-enters it, and every model call
 * goes through one `ModelCallBudget` (see `maxModelCalls`). A provider's "context too long" is
 * recovered from at most `MAX_CONTEXT_RECOVERIES` times per request: compact, then project within
 * the limit the server named; a recovery that changes nothing ends the request at once.
 */
export async function* sessionLoop(
  session: SessionInternals,
  parts: { readonly fitting: ContextFitting; readonly toolRuns: ToolRuns },
  state: RequestState,
): AsyncGenerator<SessionEvent> {
  const maxIterations = session.options.maxIterations ?? 8
  const context: CallStepContext = {
    session,
    ...parts,
    state,
    counter: await session.counterFor(state.policy),
    tools: session.toolSchemas,
    budget: new ModelCallBudget(maxModelCalls(maxIterations)),
    recovery: { count: 0, error: undefined },
  }
  while (state.iteration < maxIterations) {
    const end = yield* callStep(context)
    if (end === 'end') return
    if (end === 'next') state.iteration++
  }
  yield { type: 'max-iterations', requestId: state.requestId, iterations: state.iteration }
}
