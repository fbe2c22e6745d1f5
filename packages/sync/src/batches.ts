import type { Entry } from '@threadlens/core'

/** At most this many entries, and about this many bytes, go in one push. */
export const maxBatchEntries = 256
export const maxBatchBytes = 1024 * 1024

/**
 * The entries of `pending` (in thread order) the next push carries: the longest run from the
 * start, within the batch limits, that leaves no tool call without its result. Calls and results
 * then always travel in one message, and a message is placed whole, so no other device's entries
 * can land between a call and its result. A call still waiting for its result holds back the rest
 * (it shows as pending) until the result is appended. The first entry always goes, however large;
 * a call whose result is more than a whole batch away goes in a full batch without it.
 */
export function nextBatch(pending: readonly Entry[], sizeOf: (entry: Entry) => number): readonly Entry[] {
  const open = new Set<string>()
  let closedEnd = 0
  let bytes = 0
  let index = 0
  for (; index < pending.length && index < maxBatchEntries; index++) {
    const entry = pending[index]!
    bytes += sizeOf(entry)
    if (index > 0 && bytes > maxBatchBytes) break
    const callId = entry.refs.toolCallId
    if (callId !== undefined && entry.kind === 'tool_call') open.add(callId)
    if (callId !== undefined && entry.kind === 'tool_result') open.delete(callId)
    if (open.size === 0) closedEnd = index + 1
  }
  // A call whose result is more than a batch away: the batch goes at its limit rather than never.
  if (closedEnd === 0 && index < pending.length) return pending.slice(0, Math.max(index, 1))
  return pending.slice(0, closedEnd)
}
