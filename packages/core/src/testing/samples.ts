import fc from 'fast-check'
import type { CallAttempt, CallRecord } from '../calls/call-record'
import type { TokenCalibration } from '../calls/calibration'
import type { Entry } from '../entries/entry'
import type { Memory } from '../memory/memory'
import type { ModelInfo } from '../models/model-info'
import { actionsArbitrary, buildThread } from './random-thread'

// Valid values with every optional field somewhere, as bases the readers' property tests damage.

export const sampleCallRecord: CallRecord = {
  model: 'gpt-4o',
  provider: 'openai',
  counter: 'o200k_base',
  policyHash: 'abc',
  policy: { maxInputTokens: 8192 },
  toolsHash: 'def',
  tools: [{ name: 'weather' }],
  memoryHash: '01',
  memory: 'notes',
  basisSeq: 3,
  messagesHash: '42',
  inputTokens: 10,
  outputTokens: 5,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  localInputTokens: 9,
  sentMessages: 2,
  recalledEntries: 3,
  summarySeq: 1,
  stopReason: 'stop',
  startedAt: 1.5,
  firstTokenMs: 20,
  durationMs: 40,
  attempts: 1,
  steps: [
    { stopReason: 'tool-calls', inputTokens: 4, outputTokens: 2, cachedInputTokens: 0, firstTokenMs: 20, durationMs: 25 },
    { stopReason: 'stop', inputTokens: 6, outputTokens: 3, durationMs: 15 },
  ],
}

const common = { threadId: 't1', createdAt: 1_700_000_000_000 }

export const sampleEntries: readonly Entry[] = [
  {
    ...common,
    id: 'e0',
    seq: 0,
    kind: 'message',
    payload: {
      role: 'user',
      content: 'look\nhere',
      name: 'ann',
      parts: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' }, detail: 'low', width: 10, height: 20 },
        { type: 'image', source: { type: 'attachment', id: `sha256-${'0'.repeat(64)}`, mediaType: 'image/png', bytes: 3 } },
        { type: 'file', source: { type: 'provider-file', fileId: 'file-1' }, filename: 'a.pdf', pages: 2 },
        { type: 'text', text: 'here' },
      ],
    },
    refs: { requestId: 'r1' },
    meta: { pinned: true, tokens: { o200k_base: 4 }, app: { tag: ['x', 1, null] } },
  } as unknown as Entry,
  {
    ...common,
    id: 'e1',
    seq: 1,
    kind: 'message',
    payload: { role: 'assistant', content: 'no', refusal: 'I cannot' },
    refs: { requestId: 'r1', callId: 'c1', iteration: 0, parentCallId: 'p' },
    meta: { call: sampleCallRecord, interrupted: true },
  } as unknown as Entry,
  {
    ...common,
    id: 'e2',
    seq: 2,
    kind: 'tool_call',
    payload: { name: 'weather', arguments: { city: 'Oslo', days: [1, 2] } },
    refs: { callId: 'c1', toolCallId: 't' },
  } as unknown as Entry,
  {
    ...common,
    id: 'e3',
    seq: 3,
    kind: 'tool_result',
    payload: { name: 'weather', result: { celsius: 3 } },
    refs: { toolCallId: 't' },
    meta: { truncated: { by: 'lines', totalLines: 9, totalBytes: 90 } },
  } as unknown as Entry,
  { ...common, id: 'e4', seq: 4, kind: 'tool_result', payload: { name: 'weather', error: 'timeout' }, refs: { toolCallId: 't' } } as unknown as Entry,
  {
    ...common,
    id: 'e5',
    seq: 5,
    kind: 'summary',
    payload: { fromSeq: 0, toSeq: 4, content: 'so far' },
    refs: {},
    meta: { unreadable: { field: 'payload', rule: 'x' } },
  } as unknown as Entry,
  { ...common, id: 'e6', seq: 6, kind: 'context_op', payload: { op: 'pin', target: 2, reason: 'task' }, refs: {} } as unknown as Entry,
  {
    ...common,
    id: 'e7',
    seq: 7,
    kind: 'tool_call',
    payload: {
      name: 'lookup',
      arguments: { order: '12345678901234567890', price: 1 },
      argumentsText: '{"order": 12345678901234567890, "price": 1.0}',
    },
    refs: { callId: 'c2', toolCallId: 't~2' },
    meta: { originalToolCallId: 't' },
  } as unknown as Entry,
  {
    ...common,
    id: 'e8',
    seq: 8,
    kind: 'tool_result',
    payload: {
      name: 'lookup',
      result: 'line 1\nline 2',
      parts: [
        { type: 'text', text: 'line 1' },
        { type: 'text', text: 'line 2' },
      ],
    },
    refs: { toolCallId: 't~2' },
    meta: { originalToolCallId: 't' },
  } as unknown as Entry,
]

/** Stored entries: the samples above and the entries of random threads. */
export const storedEntryArbitrary: fc.Arbitrary<Entry> = fc.oneof(
  fc.constantFrom(...sampleEntries),
  actionsArbitrary.chain((actions) => {
    const entries = buildThread(actions).entries
    return entries.length === 0 ? fc.constantFrom(...sampleEntries) : fc.constantFrom(...entries)
  }),
)

/** What `append` took for a stored entry: without id, threadId and seq, sometimes without the rest. */
export function inputOf(entry: Entry, keepOptional: boolean): Record<string, unknown> {
  const { id, threadId: _threadId, seq: _seq, createdAt, refs, meta, ...rest } = entry
  if (!keepOptional) return Object.keys(refs).length > 0 ? { ...rest, refs } : rest
  return { ...rest, refs, createdAt, id, ...(meta === undefined ? {} : { meta }) }
}

export const sampleAttempt: CallAttempt = {
  id: 'c1#1',
  threadId: 't1',
  callId: 'c1',
  requestId: 'r1',
  attempt: 1,
  status: 'failed',
  record: sampleCallRecord,
  error: { name: 'RateLimitError', message: 'slow down', status: 429 },
}

export const sampleCalibration: TokenCalibration = {
  model: 'gpt-4o',
  counter: 'o200k_base',
  samples: [{ local: 10, reported: 11, messages: 2 }],
  ratio: 1.1,
  spread: 0,
  calls: 1,
  updatedAt: 5,
}

export const sampleMemory: Memory = {
  id: 'm1',
  rev: 3,
  spaces: {
    tasks: {
      kind: 'list',
      data: [
        { id: 'a', text: 'do', status: 'open' },
        { id: 'b', text: '', status: 'done' },
      ],
      rev: 1,
      metadata: {},
    },
    world: { kind: 'map', data: { city: 'Oslo' }, rev: 2, metadata: { note: 1 } },
    notes: { kind: 'list', data: ['x', 1, { y: null }], rev: 3, metadata: {} },
  },
  createdAt: 1,
  updatedAt: 2,
}

export const sampleModel: ModelInfo = {
  id: ' local-llama ',
  provider: 'meta',
  contextWindow: 8192,
  maxOutputTokens: 1000,
  maxInputTokens: 7000,
  tokenizer: 'heuristic',
  exactTokenizer: false,
  safetyMargin: 0.15,
  pricing: {
    inputPerMillion: 1,
    outputPerMillion: 2,
    cacheReadPerMillion: 0.1,
    cacheWritePerMillion: 1.25,
    cacheWriteLongPerMillion: 2,
    minimumCacheableTokens: 1024,
  },
}
