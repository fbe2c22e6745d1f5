import type { JsonValue, ToolCallPayload, ToolResultPayload } from './entry'

/** The text a tool result shows the model: strings as they are, other JSON serialized, errors marked. */
export function toolResultText(payload: ToolResultPayload): string {
  if (payload.error !== undefined) return `Error: ${payload.error}`
  return jsonText(payload.result as JsonValue)
}

/** Tool call arguments as the JSON text providers exchange. */
export function toolArgumentsText(payload: ToolCallPayload): string {
  return JSON.stringify(payload.arguments)
}

export function jsonText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
