import { type Entry } from '@threadlens/core'
import { toolArgumentsText, toolResultText } from '@threadlens/core/internal'

const previews = new WeakMap<Entry, string>()

/** One line describing an entry (plain text; rendered as a text node). Cached per entry. */
export function entryPreview(entry: Entry): string {
  let preview = previews.get(entry)
  if (preview !== undefined) return preview
  switch (entry.kind) {
    case 'message':
      preview = `${entry.payload.role}: ${entry.payload.content}`
      break
    case 'tool_call':
      preview = `${entry.payload.name}(${toolArgumentsText(entry.payload)})`
      break
    case 'tool_result':
      preview = `${entry.payload.name} → ${toolResultText(entry.payload)}`
      break
    case 'summary':
      preview = `summary of #${entry.payload.fromSeq}–#${entry.payload.toSeq}: ${entry.payload.content}`
      break
    case 'context_op':
      preview = `${entry.payload.op}${entry.payload.target === undefined ? '' : ` #${entry.payload.target}`}: ${entry.payload.reason}`
      break
  }
  // Long previews are cut: a row shows one line and the text filter stays fast.
  if (preview.length > 400) preview = `${preview.slice(0, 399)}…`
  previews.set(entry, preview)
  return preview
}

/** `requestId=r1 callId=c2 …` for the refs that are set. */
export function refsText(entry: Entry): string {
  return Object.entries(entry.refs)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ')
}

/** The set refs' values only (`r14 · c18 · tc-budget`), for a narrow column. */
export function refsValues(entry: Entry): string {
  return Object.values(entry.refs)
    .filter((value) => value !== undefined)
    .map(String)
    .join(' · ')
}
