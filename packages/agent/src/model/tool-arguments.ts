import type { JsonObject } from '@threadlens/core'
import type { ToolCallEvent } from './model-client'

// The model sees this text back in the tool error: enough to recognise its mistake, not a flood.
const maxQuotedArguments = 200

/**
 * The `tool-call` event for a finished call. Empty text means no arguments (`{}`): OpenAI-compatible
 * servers send `""` for tools without parameters, and Anthropic streams no delta for `{}`.
 */
export function toolCallEvent(toolCallId: string, name: string, argumentsText: string): ToolCallEvent {
  if (argumentsText.trim() === '') return { type: 'tool-call', toolCallId, name, arguments: {}, argumentsText }
  let parsed: unknown
  try {
    parsed = JSON.parse(argumentsText)
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'not JSON'
    return invalid(toolCallId, name, argumentsText, `they are not valid JSON (${reason})`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return invalid(
      toolCallId,
      name,
      argumentsText,
      `they must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}`,
    )
  }
  return { type: 'tool-call', toolCallId, name, arguments: parsed as JsonObject, argumentsText }
}

function invalid(toolCallId: string, name: string, argumentsText: string, problem: string): ToolCallEvent {
  const quoted = argumentsText.length <= maxQuotedArguments ? argumentsText : `${argumentsText.slice(0, maxQuotedArguments)}…`
  return {
    type: 'tool-call',
    toolCallId,
    name,
    arguments: {},
    argumentsText,
    argumentsError: `The arguments for tool "${name}" could not be used: ${problem}. Received: ${quoted} Call the tool again with the arguments as one JSON object.`,
  }
}
