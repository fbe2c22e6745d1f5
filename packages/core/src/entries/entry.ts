import type { CallRecord } from '../calls/call-record'
import type { ContentPart, TextPart } from './content-parts'
import type { EntryId, ThreadId } from './ids'

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue }
export type JsonObject = { readonly [key: string]: JsonValue }

/** Roles are plain strings: storage knows no provider. */
export type Role = 'user' | 'assistant' | 'system'

export interface MessagePayload {
  readonly role: Role
  /** The message's text; with `parts`, exactly `partsText(parts)` (the text parts joined by a newline). */
  readonly content: string
  /** The speaker's name (OpenAI's `name`: who said it in a group chat). */
  readonly name?: string
  /** An assistant's refusal, kept apart from its text (OpenAI's `refusal`). */
  readonly refusal?: string
  /** The content as an ordered list of parts (text, images, files), when it is more than a string. */
  readonly parts?: readonly ContentPart[]
}

export interface ToolCallPayload {
  readonly name: string
  readonly arguments: JsonObject
  /**
   * The arguments as the JSON text the call came with, kept when `JSON.stringify(arguments)` would
   * write other text (spacing, `1.0`, `1e2`, `-0`, escapes, a repeated key, integers
   * beyond 2^53), so a format that sends text sends it byte for byte. It must parse to `arguments`
   * (integers beyond 2^53 read as their digits).
   */
  readonly argumentsText?: string
}

/**
 * Exactly one of `result` and `error` is present. `parts`: a text result given as a list of text
 * parts (an OpenAI tool message's content array), kept as parts; `result` then holds exactly
 * `partsText(parts)`, so everything that reads the text keeps working.
 */
export type ToolResultPayload =
  | { readonly name: string; readonly result: JsonValue; readonly parts?: readonly TextPart[]; readonly error?: never }
  | { readonly name: string; readonly error: string; readonly result?: never; readonly parts?: never }

/** Replaces entries `fromSeq..toSeq` (inclusive) in projections that use it. */
export interface SummaryPayload {
  readonly fromSeq: number
  readonly toSeq: number
  readonly content: string
}

export type ContextOpName = 'pin' | 'unpin' | 'reset' | 'compaction-failed'

/**
 * Changes how later projections treat entries; never deletes anything.
 * `pin`/`unpin` name a `target` seq; `reset` hides everything before itself;
 * `compaction-failed` records a summary attempt that failed (its `reason` says why) and changes nothing.
 */
export interface ContextOpPayload {
  readonly op: ContextOpName
  readonly target?: number
  readonly reason: string
}

export interface PayloadByKind {
  message: MessagePayload
  tool_call: ToolCallPayload
  tool_result: ToolResultPayload
  summary: SummaryPayload
  context_op: ContextOpPayload
}

export type EntryKind = keyof PayloadByKind
export const entryKinds: readonly EntryKind[] = ['message', 'tool_call', 'tool_result', 'summary', 'context_op']

/** Correlation ids. From these and the recorded policy any past model call can be replayed. */
export interface EntryRefs {
  /** One user ask and everything it caused. */
  readonly requestId?: string
  /** One model call: its assistant text and tool calls share it. */
  readonly callId?: string
  /** Pairs a `tool_call` with its `tool_result`. */
  readonly toolCallId?: string
  /** Loop iteration within a request. */
  readonly iteration?: number
  readonly parentCallId?: string
}

export interface EntryMeta {
  /** Pinned at append time; `context_op` pin/unpin change it later. */
  readonly pinned?: boolean
  /** Token counts keyed by counter id (e.g. `o200k_base`), stored so a reload never recounts. */
  readonly tokens?: { readonly [counterId: string]: number }
  /** The entry records something cut short: a partial assistant reply, an interrupted call. */
  readonly interrupted?: boolean
  /** Set when tool output was truncated before it entered the thread. */
  readonly truncated?: { readonly by: 'lines' | 'bytes'; readonly totalLines: number; readonly totalBytes: number }
  /** On the assistant message of a model call: what is needed to replay that call exactly. */
  readonly call?: CallRecord
  /** Free-form data of the application (JSON only). */
  readonly app?: JsonObject
  /**
   * Set on a placeholder the store puts where a stored entry could not be read (written by an
   * earlier version, or edited outside threadlens): what was wrong with it.
   */
  readonly unreadable?: { readonly field: string; readonly rule: string }
  /**
   * On a `tool_call` or `tool_result` whose id an import renamed (a recorded conversation reused
   * it): the id the conversation gave it, so an export to a format that allows reused ids can
   * give it back.
   */
  readonly originalToolCallId?: string
}

export type { CallRecord }
export type { ContentPart }

export interface EntryOf<K extends EntryKind> {
  readonly id: EntryId
  readonly threadId: ThreadId
  /** 0, 1, 2, … gapless per thread. */
  readonly seq: number
  readonly kind: K
  readonly payload: PayloadByKind[K]
  readonly refs: EntryRefs
  /** Milliseconds since the epoch. */
  readonly createdAt: number
  readonly meta?: EntryMeta
}

export type MessageEntry = EntryOf<'message'>
export type ToolCallEntry = EntryOf<'tool_call'>
export type ToolResultEntry = EntryOf<'tool_result'>
export type SummaryEntry = EntryOf<'summary'>
export type ContextOpEntry = EntryOf<'context_op'>
export type Entry = MessageEntry | ToolCallEntry | ToolResultEntry | SummaryEntry | ContextOpEntry

/** What `append` takes: the thread assigns `id`, `threadId`, `seq` and (unless given) `createdAt`. */
export type EntryInputOf<K extends EntryKind> = {
  readonly kind: K
  readonly payload: PayloadByKind[K]
  readonly refs?: EntryRefs
  readonly meta?: EntryMeta
  readonly createdAt?: number
  readonly id?: string
}
export type EntryInput =
  EntryInputOf<'message'> | EntryInputOf<'tool_call'> | EntryInputOf<'tool_result'> | EntryInputOf<'summary'> | EntryInputOf<'context_op'>
