import type { CallRecord, Entry, EntryInput, EntryMeta, EntryRefs, JsonObject } from '@threadlens/core'
import { completeCallRecord } from '@threadlens/core/calls'
import type { UIMessage } from 'ai'
import { outcomeOf, reportedCallsOf, stepOwners } from './call-metadata'
import { UnstorableMessageError } from './errors'
import { deniedResultText, isToolPart, toJson, toolArguments, toolName, userContentParts, type ToolPartLike } from './ui-message-parts'

/**
 * Where a UI message lives in its entries' `meta.app` (a field the entry schema already allows):
 * the message's first entry (its anchor) holds the whole message as the UI had it, every other
 * entry of the message names it. The entries' payloads hold what the model sees.
 */
export const UI_MESSAGE_KEY = 'aiSdk'

/** Format version of what is stored under `meta.app.aiSdk`. */
const recordVersion = 1

export interface UIMessageEntriesOptions {
  /**
   * Largest `data:` URL of a file part kept inline (characters). A file part's `url` is always
   * stored as given: a `data:` URL keeps the bytes in the thread (as data), an `https:` or `blob:`
   * URL keeps only the reference (the application keeps the bytes). Default: 4,000,000.
   */
  readonly maxInlineFileChars?: number
  /**
   * The record of the model call that wrote step `callId` (`<messageId>:<step>`), stored on that
   * step's first entry (`meta.call`) where the devtools find it. A record written when its request
   * was sent (stop reason `unknown`) is completed from the reply's metadata when a server reported
   * the call there (`projectedMessageMetadata`). Default: none recorded.
   */
  readonly callRecordFor?: (callId: string) => CallRecord | undefined
}

/** The call id of step `step` of message `messageId`: entries of one model call share it. */
export function stepCallId(messageId: string, step: number): string {
  return `${messageId}:${step}`
}

/**
 * Entries for one UI message, in order:
 * - user and system messages: one `message` entry whose content is the text parts joined by a newline;
 * - assistant messages: per step (parts between `step-start` parts), a `message` entry with the
 *   step's text, then a `tool_call` per tool part whose input is complete, then a `tool_result` per
 *   finished tool part (`output-available` → result, `output-error` → error, `output-denied` → an
 *   error saying the user denied it). Calls awaiting approval or execution stay unanswered.
 * Reasoning, sources, files, data parts and everything else are kept, exactly, in the anchor's
 * `meta.app.aiSdk.message`; they are not sent to the model as text.
 */
export function uiMessageToEntryInputs(message: UIMessage, options: UIMessageEntriesOptions = {}): EntryInput[] {
  checkStorable(message, options.maxInlineFileChars ?? 4_000_000)
  const stored = toJson(message.id, message, 'message') as JsonObject
  const anchorApp: JsonObject = { [UI_MESSAGE_KEY]: { v: recordVersion, message: stored } }
  const memberApp: JsonObject = { [UI_MESSAGE_KEY]: { v: recordVersion, messageId: message.id } }
  const inputs: EntryInput[] = []
  const recorded = new Set<string>()
  // A server's report of the calls that wrote this reply: checked, ignored when unreadable.
  const reported = message.role === 'assistant' ? reportedCallsOf(message) : undefined
  const push = (input: EntryInput): void => {
    const meta: { app: JsonObject; call?: CallRecord } = { app: inputs.length === 0 ? anchorApp : memberApp }
    const callId = input.refs?.callId
    if (message.role === 'assistant' && callId !== undefined && !recorded.has(callId)) {
      recorded.add(callId)
      const call = options.callRecordFor?.(callId)
      const outcome = reported?.calls.get(callId)
      if (call !== undefined)
        meta.call =
          outcome === undefined || call.stopReason !== 'unknown'
            ? call
            : completeCallRecord(call, outcomeOf(outcome, { withModel: call.model === 'server' }))
    }
    inputs.push({ ...input, meta: meta as EntryMeta } as EntryInput)
  }

  if (message.role !== 'assistant') {
    const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
    const parts = message.role === 'user' ? userContentParts(message.parts) : undefined
    push({
      kind: 'message',
      payload: { role: message.role, content: text, ...(parts === undefined ? {} : { parts }) },
      refs: { requestId: message.id },
    })
    return inputs
  }

  // Steps of one call (a tool loop on the server) share its call id.
  const ownerOf = stepOwners(message.id, reported ?? { calls: new Map(), problem: undefined })
  stepsOf(message.parts).forEach((parts, step) => {
    const refs: EntryRefs = { callId: stepCallId(message.id, ownerOf(step)), iteration: step }
    for (const input of stepEntries(message.id, parts, refs)) push(input)
  })
  if (inputs.length === 0)
    push({ kind: 'message', payload: { role: 'assistant', content: '' }, refs: { callId: stepCallId(message.id, 0), iteration: 0 } })
  return inputs
}

/** Refuses, with the reason, a message the store could not keep: no id, an unknown role, parts that are no array, a file too large to keep inline. */
function checkStorable(message: UIMessage, maxInline: number): void {
  if (typeof message.id !== 'string' || message.id === '')
    throw new UnstorableMessageError(String(message.id), 'it has no id; give every message an id')
  if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') {
    throw new UnstorableMessageError(message.id, `its role is ${JSON.stringify(message.role)}; expected user, assistant or system`)
  }
  if (!Array.isArray(message.parts)) throw new UnstorableMessageError(message.id, 'its parts are not an array')
  for (const part of message.parts) {
    if (part.type === 'file' && part.url.startsWith('data:') && part.url.length > maxInline) {
      throw new UnstorableMessageError(
        message.id,
        `a file part holds ${part.url.length} characters of data, over maxInlineFileChars (${maxInline}); upload it and keep an https: URL, or raise the limit`,
      )
    }
  }
}

/** An assistant message's parts split at its `step-start` parts (an empty step is not started). */
function stepsOf(parts: UIMessage['parts']): UIMessage['parts'][] {
  const steps: UIMessage['parts'][] = [[]]
  for (const part of parts) {
    if (part.type === 'step-start') {
      if ((steps[steps.length - 1] ?? []).length > 0) steps.push([])
      continue
    }
    steps[steps.length - 1]?.push(part)
  }
  return steps
}

/** One step's entries: its text, a call per tool part whose input is complete, then a result per finished call. */
function stepEntries(messageId: string, parts: UIMessage['parts'], refs: EntryRefs): EntryInput[] {
  const entries: EntryInput[] = []
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  const tools = parts.filter((part) => isToolPart(part)) as unknown as ToolPartLike[]
  const called = tools.filter((part) => part.state !== 'input-streaming')
  if (text !== '') entries.push({ kind: 'message', payload: { role: 'assistant', content: text }, refs })
  for (const part of called) {
    entries.push({
      kind: 'tool_call',
      payload: { name: toolName(part), arguments: toolArguments(messageId, part.input, `tool ${part.toolCallId} input`) },
      refs: { ...refs, toolCallId: part.toolCallId },
    })
  }
  for (const part of called) {
    const name = toolName(part)
    const callRefs = { ...refs, toolCallId: part.toolCallId }
    if (part.state === 'output-available') {
      const result = toJson(messageId, part.output ?? null, `tool ${part.toolCallId} output`)
      entries.push({ kind: 'tool_result', payload: { name, result }, refs: callRefs })
    } else if (part.state === 'output-error') {
      entries.push({ kind: 'tool_result', payload: { name, error: part.errorText ?? 'error' }, refs: callRefs })
    } else if (part.state === 'output-denied') {
      entries.push({ kind: 'tool_result', payload: { name, error: deniedResultText(part.approval?.reason) }, refs: callRefs })
    }
  }
  return entries
}

/** What an entry holds under `meta.app.aiSdk`, if anything this package wrote. */
export function uiRecordOf(entry: Entry): { readonly message?: UIMessage; readonly messageId?: string } | undefined {
  const record = entry.meta?.app?.[UI_MESSAGE_KEY]
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined
  const value = record as { readonly v?: unknown; readonly message?: unknown; readonly messageId?: unknown }
  if (value.v !== recordVersion) return undefined
  const message = value.message
  if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
    const candidate = message as { id?: unknown; role?: unknown; parts?: unknown }
    if (typeof candidate.id === 'string' && typeof candidate.role === 'string' && Array.isArray(candidate.parts))
      return { message: message as unknown as UIMessage }
  }
  if (typeof value.messageId === 'string') return { messageId: value.messageId }
  return undefined
}

/** The UI message id an entry belongs to (written by this package), or `undefined`. */
export function uiMessageIdOf(entry: Entry): string | undefined {
  const record = uiRecordOf(entry)
  return record?.message?.id ?? record?.messageId
}

/**
 * The thread as UI messages. Entries written from UI messages give those messages back exactly
 * (JSON equal: `undefined` members are not kept). Entries written by other code (a threadlens
 * session, an import) become plain messages: text, and `dynamic-tool` parts for tool calls with
 * their results. Summaries and context ops are not chat messages and are left out.
 */
export function entriesToUIMessages(entries: readonly Entry[]): UIMessage[] {
  const messages: UIMessage[] = []
  const positions = new Map<string, number>()
  const foreignCalls = new Map<string, { message: UIMessage; index: number }>()
  let foreignAssistant: { message: UIMessage; callId: string | undefined } | undefined
  for (const entry of entries) {
    const record = uiRecordOf(entry)
    if (record !== undefined) {
      foreignAssistant = undefined
      if (record.message !== undefined) {
        // A message that grew later (a tool result after an approval, a continued step) is appended
        // again with its new entries; the newest copy replaces the older one in place.
        const message = structuredClone(record.message)
        const at = positions.get(message.id)
        if (at === undefined) {
          positions.set(message.id, messages.length)
          messages.push(message)
        } else {
          messages[at] = message
        }
      }
      continue
    }
    if (entry.kind === 'message') {
      const parts: UIMessage['parts'] = entry.payload.content === '' ? [] : [{ type: 'text', text: entry.payload.content }]
      const message: UIMessage = { id: entry.id, role: entry.payload.role, parts }
      messages.push(message)
      foreignAssistant = entry.payload.role === 'assistant' ? { message, callId: entry.refs.callId } : undefined
    } else if (entry.kind === 'tool_call') {
      const callId = entry.refs.callId
      if (foreignAssistant === undefined || (callId !== undefined && foreignAssistant.callId !== undefined && callId !== foreignAssistant.callId)) {
        const message: UIMessage = { id: entry.id, role: 'assistant', parts: [] }
        messages.push(message)
        foreignAssistant = { message, callId }
      }
      const toolCallId = entry.refs.toolCallId ?? entry.id
      foreignAssistant.message.parts.push({
        type: 'dynamic-tool',
        toolName: entry.payload.name,
        toolCallId,
        state: 'input-available',
        input: entry.payload.arguments,
      })
      foreignCalls.set(toolCallId, { message: foreignAssistant.message, index: foreignAssistant.message.parts.length - 1 })
    } else if (entry.kind === 'tool_result') {
      const call = foreignCalls.get(entry.refs.toolCallId ?? '')
      const part = call?.message.parts[call.index]
      if (call === undefined || part === undefined || part.type !== 'dynamic-tool') continue
      call.message.parts[call.index] =
        entry.payload.error !== undefined
          ? {
              type: 'dynamic-tool',
              toolName: part.toolName,
              toolCallId: part.toolCallId,
              state: 'output-error',
              input: part.input,
              errorText: entry.payload.error,
            }
          : {
              type: 'dynamic-tool',
              toolName: part.toolName,
              toolCallId: part.toolCallId,
              state: 'output-available',
              input: part.input,
              output: entry.payload.result,
            }
    }
  }
  return messages
}
