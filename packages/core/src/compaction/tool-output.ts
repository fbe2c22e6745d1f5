import type { EntryInputOf, EntryRefs, JsonValue } from '../entries/entry'
import type { ThreadlensEvent } from '../events'
import type { ContextPolicy } from '../policy/policy'
import { utf8Length } from '../utils/utf8-length'
import { truncateHead, truncateHeadTail, truncateTail, type TruncateResult } from '../text/truncate'

export interface ToolResultInputOptions {
  readonly name: string
  readonly toolCallId: string
  /** The tool's output: text, or any JSON value. Omit when `error` is set. */
  readonly output?: JsonValue
  /** The tool failed with this message. */
  readonly error?: string
  readonly refs?: EntryRefs
  /** Limits from the policy: `toolOutputMaxBytes`, `toolOutputMaxLines`, `toolOutputKeep`. */
  readonly policy: Pick<ContextPolicy, 'toolOutputMaxBytes' | 'toolOutputMaxLines' | 'toolOutputKeep'>
  readonly onEvent?: (event: ThreadlensEvent) => void
}

const truncators = { head: truncateHead, tail: truncateTail, 'head-tail': truncateHeadTail } as const

/**
 * A `tool_result` entry ready to append, with long output cut by the policy before it enters the
 * thread: a visible marker in the text, and the full size recorded in `meta.truncated`.
 * JSON output that is too long is stored as its truncated JSON text.
 */
export function toolResultInput(options: ToolResultInputOptions): EntryInputOf<'tool_result'> {
  const refs = { ...options.refs, toolCallId: options.toolCallId }
  const limitsFor = (text: string): TruncateResult =>
    truncators[options.policy.toolOutputKeep](text, { maxBytes: options.policy.toolOutputMaxBytes, maxLines: options.policy.toolOutputMaxLines })
  if (options.error !== undefined) {
    const cut = limitsFor(options.error)
    return withTruncation({ kind: 'tool_result', payload: { name: options.name, error: cut.content }, refs }, cut, options)
  }
  const output = options.output ?? null
  const text = typeof output === 'string' ? output : JSON.stringify(output)
  const cut = limitsFor(text)
  if (!cut.truncated) return { kind: 'tool_result', payload: { name: options.name, result: output }, refs }
  return withTruncation({ kind: 'tool_result', payload: { name: options.name, result: cut.content }, refs }, cut, options)
}

function withTruncation(input: EntryInputOf<'tool_result'>, cut: TruncateResult, options: ToolResultInputOptions): EntryInputOf<'tool_result'> {
  if (!cut.truncated || cut.truncatedBy === undefined) return input
  options.onEvent?.({
    type: 'tool-output-truncate',
    toolName: options.name,
    toolCallId: options.toolCallId,
    truncatedBy: cut.truncatedBy,
    totalLines: cut.totalLines,
    totalBytes: cut.totalBytes,
    keptBytes: utf8Length(cut.content),
  })
  return { ...input, meta: { truncated: { by: cut.truncatedBy, totalLines: cut.totalLines, totalBytes: cut.totalBytes } } }
}
