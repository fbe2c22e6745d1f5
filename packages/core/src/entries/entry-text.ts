import type { JsonValue, ToolCallPayload, ToolResultPayload } from './entry'
import { memo } from '../utils/memo'

// Entries are frozen, so a payload's text never changes: serialize each structured result once.
const resultTexts = new WeakMap<ToolResultPayload, string>()

/** The text a tool result shows the model: strings as they are, other JSON serialized, errors marked. */
export function toolResultText(payload: ToolResultPayload): string {
  if (payload.error !== undefined) return `Error: ${payload.error}`
  if (typeof payload.result === 'string') return payload.result
  if (!Object.isFrozen(payload)) return jsonText(payload.result as JsonValue)
  return memo(resultTexts, payload, () => jsonText(payload.result as JsonValue))
}

/** Tool call arguments as the JSON text providers exchange: the text the call came with, when it kept one. */
export function toolArgumentsText(payload: Pick<ToolCallPayload, 'arguments' | 'argumentsText'>): string {
  return payload.argumentsText ?? JSON.stringify(payload.arguments)
}

export function jsonText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
