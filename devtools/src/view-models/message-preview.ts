import type { ProjectedMessage } from '@threadlens/core'

/** Characters of a one-line preview. */
export const PREVIEW_CHARS = 160

/** Whitespace folded to single spaces and cut to `limit` characters with an ellipsis. */
export function oneLine(text: string, limit: number = PREVIEW_CHARS): string {
  // Only the head is folded: a 1 MB tool result costs no more than a short one.
  const folded = text
    .slice(0, limit * 2)
    .replace(/\s+/g, ' ')
    .trim()
  return folded.length > limit || text.length > limit * 2 ? `${folded.slice(0, limit - 1)}…` : folded
}

/** Who sent a projected message, as a short label (`tool · read_file`). */
export function messageRole(message: ProjectedMessage): string {
  return message.role === 'tool' ? `tool · ${message.name}` : message.role
}

/** One line saying what a projected message holds (plain text; rendered as a text node). */
export function messagePreview(message: ProjectedMessage, limit: number = PREVIEW_CHARS): string {
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    const calls = message.toolCalls.map((call) => `${call.name}(${oneLine(JSON.stringify(call.arguments), 60)})`).join(', ')
    return oneLine(message.content === '' ? `→ ${calls}` : `${message.content} → ${calls}`, limit)
  }
  return oneLine(message.content, limit) || '(empty)'
}

/**
 * Where a projected message came from, after its role: its entries' seqs (`#17, #18`), or, for one
 * built from no entry (system prompt, memory, pending), its segment when the role does not say it already.
 */
export function messageSource(message: ProjectedMessage, info: { readonly segment: string; readonly seqs: readonly number[] } | undefined): string {
  if (info === undefined) return ''
  if (info.seqs.length > 0) return `#${info.seqs.join(', #')}`
  return info.segment === message.role ? '' : info.segment
}
