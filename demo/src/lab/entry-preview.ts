import type { Entry } from '@threadlens/core'

/** One line describing an entry for the timeline. Plain text: callers render it as a text node. */
export function entryPreview(entry: Entry): string {
  switch (entry.kind) {
    case 'message':
      return `${entry.payload.role}: ${entry.payload.content}`
    case 'tool_call':
      return `${entry.payload.name}(${JSON.stringify(entry.payload.arguments)})`
    case 'tool_result':
      return entry.payload.error !== undefined
        ? `${entry.payload.name} failed: ${entry.payload.error}`
        : `${entry.payload.name} → ${typeof entry.payload.result === 'string' ? entry.payload.result : JSON.stringify(entry.payload.result)}`
    case 'summary':
      return `summary of #${entry.payload.fromSeq}–#${entry.payload.toSeq}: ${entry.payload.content}`
    case 'context_op':
      return `${entry.payload.op}${entry.payload.target === undefined ? '' : ` #${entry.payload.target}`}: ${entry.payload.reason}`
  }
}
