import type { ContextPolicy, EntryRefs, JsonValue, ThreadlensEvent } from '@threadlens/core'
import { toolResultInput } from '@threadlens/core/compaction'
import { formatIssues, issuesText, readJsonData, safeParse, type EntryInputOf } from '@threadlens/core/internal'
import type { ToolCallEvent } from '../model/model-client'
import type { Tool, ToolContext } from '../tools/define-tool'
import type { SessionEvent } from './session-events'

/** The result text of a tool call the request's abort interrupted. */
export const INTERRUPTED = 'interrupted: the request was aborted before this tool returned'

/** The result text of a call a reload left without a result, whose tool is not idempotent. */
export const NOT_RERUN = 'interrupted: the page closed while this tool ran; it is not idempotent, so it was not run again'

/** How one tool call ended: its JSON output, or an error (`interrupted` when the request's abort cut it off). */
export type ToolOutcome = { readonly output: JsonValue; readonly interrupted?: false } | { readonly error: string; readonly interrupted: boolean }

/**
 * Runs one tool call: an unknown tool, arguments that fail the tool's schema, a throw or output
 * that is not JSON become an error result (never a broken thread); an abort, an interrupted one.
 */
export async function executeTool(
  tools: ReadonlyMap<string, Tool<unknown>>,
  call: ToolCallEvent,
  context: Omit<ToolContext, 'toolCallId'>,
): Promise<ToolOutcome> {
  const tool = tools.get(call.name)
  if (tool === undefined) return { error: `unknown tool "${call.name}"; available: ${[...tools.keys()].join(', ') || 'none'}`, interrupted: false }
  if (call.argumentsError !== undefined) return { error: `invalid arguments: ${call.argumentsError}`, interrupted: false }
  const parsed = safeParse(tool.parameters, call.arguments)
  if (!parsed.success) {
    return { error: `invalid arguments: ${issuesText(formatIssues(parsed.error), 'arguments')}`, interrupted: false }
  }
  try {
    const output = await tool.execute(parsed.data, { ...context, toolCallId: call.toolCallId })
    if (context.signal.aborted) return { error: INTERRUPTED, interrupted: true }
    // The same rules as every entry (core's readJsonData): a tool's bad output becomes an error result, never a broken thread.
    const checked = readJsonData(output)
    if (!checked.ok) {
      const at = checked.problem.path.length === 0 ? '' : ` at ${checked.problem.path.join('.')}`
      return { error: `the tool returned something that is not JSON${at}: ${checked.problem.rule}`, interrupted: false }
    }
    return { output: checked.value }
  } catch (error) {
    if (context.signal.aborted) return { error: INTERRUPTED, interrupted: true }
    return { error: error instanceof Error ? error.message : String(error), interrupted: false }
  }
}

/** The `tool_result` entry that answers `call`: output cut by the policy (saying so through `onEvent`), an interruption marked. */
export function toolResultEntry(
  call: Pick<ToolCallEvent, 'name' | 'toolCallId'>,
  outcome: ToolOutcome,
  policy: ContextPolicy,
  refs: EntryRefs,
  onEvent: (event: ThreadlensEvent) => void,
): EntryInputOf<'tool_result'> {
  const answer = { name: call.name, toolCallId: call.toolCallId, policy, refs, onEvent }
  const input = 'error' in outcome ? toolResultInput({ ...answer, error: outcome.error }) : toolResultInput({ ...answer, output: outcome.output })
  return outcome.interrupted === true ? { ...input, meta: { ...input.meta, interrupted: true } } : input
}

/** The `tool-result` event of `call`'s written result: its text as the thread holds it. */
export function toolResultEvent(call: Pick<ToolCallEvent, 'name' | 'toolCallId'>, entry: EntryInputOf<'tool_result'>): SessionEvent {
  const { payload } = entry
  const output = payload.error ?? (typeof payload.result === 'string' ? payload.result : JSON.stringify(payload.result))
  return { type: 'tool-result', toolCallId: call.toolCallId, name: call.name, output, isError: payload.error !== undefined }
}
