import type { JsonValue } from '@threadlens/core'
import { formatIssues, issuesText, readJsonData, safeParse } from '@threadlens/core/internal'
import type { ToolCallEvent } from '../model/model-client'
import type { Tool, ToolContext } from '../tools/define-tool'

/** The result text of a tool call the request's abort interrupted. */
export const INTERRUPTED = 'interrupted: the request was aborted before this tool returned'

/**
 * Runs one tool call: an unknown tool, arguments that fail the tool's schema, a throw or output
 * that is not JSON become an error result (never a broken thread); an abort, an interrupted one.
 */
export async function executeTool(
tools: ReadonlyMap<string, Tool<unknown>>,
call: ToolCallEvent,
context: Omit<ToolContext, 'toolCallId'>,
): Promise<{ output: JsonValue; interrupted?: false } | { error: string; interrupted: boolean }> {
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
