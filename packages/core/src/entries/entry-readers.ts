import { maxCallSteps, type CallRecord, type CallStep } from '../calls/call-record'
import {
  array,
  boolean,
  byKey,
  flag,
  int,
  jsonObject,
  jsonValue,
  number,
  object,
  oneOf,
  optional,
  record,
  string,
  union,
  type Reader,
  type Shape,
} from '../validation/readers'
import { argumentsTextMatches } from './arguments-text'
import { contentPartReader, partsText, textPartReader, type TextPart } from './content-parts'
import type {
  ContextOpPayload,
  Entry,
  EntryInput,
  EntryKind,
  EntryMeta,
  EntryRefs,
  MessagePayload,
  PayloadByKind,
  SummaryPayload,
  ToolCallPayload,
  ToolResultPayload,
} from './entry'
import { idPattern } from './ids'

// The rules of an entry, as readers (see validation/readers.ts): what `parseEntryInput` and
// `parseEntry` check after `readEntryData` has made a clean JSON copy.

const count = int({ min: 0 })
const refText = string({ min: 1, max: 256 })
const hash = string({ min: 1, max: 64 })
const id = string({ pattern: idPattern })

export const entryRefsReader: Reader<EntryRefs> = object<EntryRefs>({
  requestId: optional(refText),
  callId: optional(refText),
  toolCallId: optional(refText),
  iteration: optional(count),
  parentCallId: optional(refText),
})

const callStepReader: Reader<CallStep> = object<CallStep>({
  stopReason: string({ min: 1, max: 64 }),
  inputTokens: optional(count),
  outputTokens: optional(count),
  cachedInputTokens: optional(count),
  cacheWriteInputTokens: optional(count),
  firstTokenMs: optional(number({ min: 0 })),
  durationMs: optional(number({ min: 0 })),
})

/** `meta.call` (see `CallRecord` in `calls/`); it lives here because entries are read here. */
export const callRecordReader: Reader<CallRecord> = object<CallRecord>({
  model: refText,
  provider: string({ min: 1, max: 64 }),
  counter: string({ min: 1, max: 64 }),
  policyHash: hash,
  policy: optional(jsonObject),
  toolsHash: hash,
  tools: optional(array(jsonObject)),
  memoryHash: optional(hash),
  memory: optional(string()),
  basisSeq: count,
  messagesHash: hash,
  inputTokens: optional(count),
  outputTokens: optional(count),
  cachedInputTokens: optional(count),
  cacheWriteInputTokens: optional(count),
  localInputTokens: optional(count),
  sentMessages: optional(count),
  recalledEntries: optional(count),
  summarySeq: optional(count),
  stopReason: string({ min: 1, max: 64 }),
  startedAt: optional(number({ min: 0 })),
  firstTokenMs: optional(number({ min: 0 })),
  durationMs: optional(number({ min: 0 })),
  attempts: optional(int({ above: 0, max: 1_000 })),
  steps: optional(array(callStepReader, maxCallSteps)),
})

type Truncated = NonNullable<EntryMeta['truncated']>
type Unreadable = NonNullable<EntryMeta['unreadable']>

export const entryMetaReader: Reader<EntryMeta> = object<EntryMeta>({
  pinned: optional(boolean),
  tokens: optional(record(string({ min: 1, max: 64 }), count)),
  interrupted: optional(boolean),
  truncated: optional(object<Truncated>({ by: oneOf(['lines', 'bytes']), totalLines: count, totalBytes: count })),
  call: optional(callRecordReader),
  app: optional(jsonObject),
  unreadable: optional(object<Unreadable>({ field: string({ max: 10_000 }), rule: string({ max: 10_000 }) })),
  originalToolCallId: optional(refText),
})

/** The rule a payload with parts breaks when `field` is not their text. */
function partsTextRule(field: string): string {
  return `with parts, ${field} must be partsText(parts): the text parts joined by a newline`
}

const messagePayload = object<MessagePayload>(
  {
    role: oneOf(['user', 'assistant', 'system']),
    content: string(),
    /** OpenAI's rule for a speaker name (letters, digits, `_` and `-`, at most 64). */
    name: optional(string({ pattern: /^[a-zA-Z0-9_-]{1,64}$/, patternRule: 'a speaker name is 1-64 characters of a-z A-Z 0-9 _ -' })),
    refusal: optional(string()),
    parts: optional(array(contentPartReader, 1_000)),
  },
  (payload, at) => {
    if (payload.refusal !== undefined && payload.role !== 'assistant')
      flag({ parent: at, key: 'refusal' }, 'only an assistant message carries a refusal')
    if (payload.parts === undefined) return
    if (payload.content !== partsText(payload.parts)) {
      flag({ parent: at, key: 'content' }, partsTextRule('content'))
    }
    if (payload.role !== 'user' && payload.parts.some((part) => part.type !== 'text')) {
      flag({ parent: at, key: 'parts' }, `images and files are only accepted in user messages (providers refuse them from the ${payload.role})`)
    }
  },
)

const toolName = string({ min: 1, max: 256 })

/** The rule a tool result with parts breaks when its `result` is not their text. */
export const toolResultPartsRule = partsTextRule('result')

/** The rule `argumentsText` breaks when it says something else than `arguments`. */
export const argumentsTextRule = 'argumentsText must be JSON text that parses to arguments'

const toolResultPayload = union<ToolResultPayload>([
  object<{ name: string; result: ToolResultPayload['result'] & {}; parts?: readonly TextPart[] }>(
    { name: toolName, result: jsonValue as Reader<ToolResultPayload['result'] & {}>, parts: optional(array(textPartReader, 1_000)) },
    (payload, at) => {
      if (payload.parts !== undefined && payload.result !== partsText(payload.parts)) flag({ parent: at, key: 'result' }, toolResultPartsRule)
    },
  ),
  object<{ name: string; error: string }>({ name: toolName, error: string() }),
] as Reader<ToolResultPayload>[])

const payloads: { readonly [K in EntryKind]: Reader<PayloadByKind[K]> } = {
  message: messagePayload,
  tool_call: object<ToolCallPayload>({ name: toolName, arguments: jsonObject, argumentsText: optional(string()) }, (payload, at) => {
    if (!argumentsTextMatches(payload)) flag({ parent: at, key: 'argumentsText' }, argumentsTextRule)
  }),
  tool_result: toolResultPayload,
  summary: object<SummaryPayload>({ fromSeq: count, toSeq: count, content: string() }, (payload, at) => {
    if (payload.fromSeq > payload.toSeq) flag({ parent: at, key: 'fromSeq' }, 'fromSeq must be <= toSeq')
  }),
  context_op: object<ContextOpPayload>(
    { op: oneOf(['pin', 'unpin', 'reset', 'compaction-failed']), target: optional(count), reason: string() },
    (payload, at) => {
      if ((payload.op === 'pin' || payload.op === 'unpin') && payload.target === undefined)
        flag({ parent: at, key: 'target' }, 'pin and unpin need a target seq')
    },
  ),
}

/**
 * One reader per kind, made from the fields every kind shares (`common`) and the kind's payload.
 * Its loop hides from a bundler that a call has no side effect: each call is marked pure, so an
 * app that never reads stored entries does not keep `entryReader`.
 */
function byKind(common: (kind: EntryKind) => Record<string, Reader<unknown>>): Reader<unknown> {
  const options: Record<string, Reader<unknown>> = {}
  for (const kind of Object.keys(payloads) as EntryKind[]) options[kind] = object(common(kind) as Shape<unknown>)
  return byKey('kind', options)
}

/** What `append` takes: `refs`, `meta`, `createdAt` and `id` optional. */
export const entryInputReader = /* @__PURE__ */ byKind((kind) => ({
  kind: oneOf([kind]),
  payload: payloads[kind],
  refs: optional(entryRefsReader),
  meta: optional(entryMetaReader),
  createdAt: optional(count),
  id: optional(id),
})) as Reader<EntryInput>

/** A complete stored entry (IndexedDB reads, imports). */
export const entryReader = /* @__PURE__ */ byKind((kind) => ({
  kind: oneOf([kind]),
  payload: payloads[kind],
  id,
  threadId: id,
  seq: count,
  refs: entryRefsReader,
  createdAt: count,
  meta: optional(entryMetaReader),
})) as Reader<Entry>
