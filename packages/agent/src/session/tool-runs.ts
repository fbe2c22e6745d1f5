import type { Entry } from '@threadlens/core'
import { toolResultInput } from '@threadlens/core/compaction'
import type { ToolCallEvent } from '../model/model-client'
import { executeTool } from './execute-tool'
import type { SessionEvent } from './session-events'
import type { RequestState, SessionInternals } from './session-internals'

const NOT_RERUN = 'interrupted: the page closed while this tool ran; it is not idempotent, so it was not run again'

/** Runs the model's tool calls and writes their results; never runs one call twice. */
export class ToolRuns {
  readonly #session: SessionInternals
  readonly #executed = new Set<string>()

  constructor(session: SessionInternals) {
    this.#session = session
  }

  /** Runs tool calls in parallel; each result is written as soon as it is ready. */
  async run(calls: readonly ToolCallEvent[], state: RequestState, callId: string, onEvent: (event: SessionEvent) => void): Promise<void> {
    const thread = await this.#session.mirror.thread()
    await Promise.all(
      calls.map(async (call) => {
        // Never twice for one call: not if this session ran it, not if any tab recorded its result.
        if (this.#executed.has(call.toolCallId) || thread.index.resultSeqByToolCallId.has(call.toolCallId)) return
        this.#executed.add(call.toolCallId)
        await this.#runOne(call, state, callId, onEvent)
      }),
    )
  }

  async #runOne(call: ToolCallEvent, state: RequestState, callId: string, onEvent: (event: SessionEvent) => void): Promise<void> {
    const refs = { requestId: state.requestId, callId, iteration: state.iteration }
    const context = { signal: state.controller.signal, threadId: this.#session.threadId, thread: await this.#session.mirror.thread(), counter: await this.#session.counterFor(state.policy) }
    const outcome = await executeTool(this.#session.tools, call, context)
    const input =
      'error' in outcome
        ? toolResultInput({ name: call.name, toolCallId: call.toolCallId, error: outcome.error, policy: state.policy, refs, onEvent })
        : toolResultInput({ name: call.name, toolCallId: call.toolCallId, output: outcome.output, policy: state.policy, refs, onEvent })
    const entry = outcome.interrupted ? { ...input, meta: { ...input.meta, interrupted: true } } : input
    await this.#session.mirror.append([entry])
    const payload = entry.payload
    onEvent({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      name: call.name,
      output: payload.error ?? (typeof payload.result === 'string' ? payload.result : JSON.stringify(payload.result)),
      isError: payload.error !== undefined,
    })
  }

  /**
   * After a reload: answers tool calls left without a result — idempotent tools run again, others
   * are recorded as interrupted. `false` when there were none.
   */
  async resumeUnresolved(state: RequestState): Promise<readonly SessionEvent[] | false> {
    const thread = await this.#session.mirror.thread()
    const calls = [...thread.index.unresolvedToolCallIds]
      .map((toolCallId) => thread.bySeq(thread.index.callSeqByToolCallId.get(toolCallId) as number))
      .filter((entry): entry is Extract<Entry, { kind: 'tool_call' }> => entry?.kind === 'tool_call')
    if (calls.length === 0) return false
    const events: SessionEvent[] = []
    for (const call of calls) {
      const tool = this.#session.tools.get(call.payload.name)
      const refs = { ...call.refs, toolCallId: call.refs.toolCallId as string }
      if (tool?.idempotent === true) {
        const toolCall: ToolCallEvent = { type: 'tool-call', toolCallId: refs.toolCallId, name: call.payload.name, arguments: call.payload.arguments, argumentsText: '' }
        await this.run([toolCall], state, refs.callId ?? '', (event) => events.push(event))
      } else {
        await this.#session.mirror.append([{ kind: 'tool_result', payload: { name: call.payload.name, error: NOT_RERUN }, refs, meta: { interrupted: true } }])
        events.push({ type: 'tool-result', toolCallId: refs.toolCallId, name: call.payload.name, output: NOT_RERUN, isError: true })
      }
    }
    return events
  }
}
