import { createTokenCounter, project, type ContextPolicy, type EntryInput } from '@threadlens/core'
import {
  callRecord,
  type CallAttempt,
  type CallAttemptError,
  type CallRecordOptions,
  type CallTiming,
  type RecordedCall,
} from '@threadlens/core/calls'
import type { MemoryBackedStores } from '@threadlens/store'
import { actionArbitrary, actionsArbitrary, buildThread, testCallOptions } from '@threadlens/testing'
import fc from 'fast-check'

// Threads as users leave them, for tests that render every tab: random conversations (core's
// random threads: parallel, failed and unresolved tool calls, summaries, resets, pins, unicode)
// with what real sessions add on top — images and files (held by the store, inline, on the web),
// refusals, entries the store could not read, huge tool outputs, interrupted replies — and the
// call records and call-log attempts (failed, retried, aborted) of a session.

/** A tiny valid PNG (1×1), inline. */
const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const models = ['gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'my-local-model', undefined] as const
const stopReasons = ['stop', 'tool-calls', 'length', 'refusal', 'content-filter'] as const

export interface VariedThread {
  readonly name: string
  readonly entries: readonly EntryInput[]
  readonly calls: readonly RecordedCall[]
  /** Whether to record failed, retried and aborted attempts in the call log. */
  readonly attempts: boolean
}

/** A deterministic pseudo-random source (mulberry32). */
function randomSource(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296
  }
}

const hex = (random: () => number) => Array.from({ length: 64 }, () => Math.floor(random() * 16).toString(16)).join('')

const EXTRA_KINDS = 7

function extraEntry(random: () => number, position: number, kind = Math.floor(random() * EXTRA_KINDS)): EntryInput[] {
  const requestId = `extra-${position}`
  switch (kind) {
    case 0:
      return [
        {
          kind: 'message',
          payload: {
            role: 'user',
            content: 'what is in this picture?',
            parts: [
              { type: 'text', text: 'what is in this picture?' },
              {
                type: 'image',
                source: { type: 'attachment', id: `sha256-${hex(random)}`, mediaType: 'image/png', bytes: 1 + Math.floor(random() * 3_000_000) },
                ...(random() < 0.5 ? { width: 1024, height: 768 } : {}),
              },
            ],
          },
          refs: { requestId },
        },
      ]
    case 1:
      return [
        {
          kind: 'message',
          payload: {
            role: 'user',
            content: 'compare\nthese',
            parts: [
              { type: 'text', text: 'compare' },
              { type: 'image', source: { type: 'url', url: PNG_DATA_URL }, detail: 'low' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/harbour.jpg' } },
              { type: 'text', text: 'these' },
              {
                type: 'file',
                source: {
                  type: 'attachment',
                  id: `sha256-${hex(random)}`,
                  mediaType: random() < 0.5 ? 'application/pdf' : 'text/markdown',
                  bytes: 40_000,
                },
                filename: 'report <b>q3</b>.pdf',
                pages: 12,
              },
            ],
          },
          refs: { requestId },
        },
      ]
    case 2:
      return [
        {
          kind: 'message',
          payload: { role: 'assistant', content: '', refusal: "I can't help with that request." },
          refs: { requestId, callId: `refusal-${position}` },
        },
      ]
    case 3:
      return [
        {
          kind: 'message',
          payload: {
            role: 'assistant',
            content: `[threadlens] entry ${position} could not be read from storage (payload.content: a string); this placeholder stands in for it.`,
          },
          meta: { unreadable: { field: 'payload.content', rule: 'a string' } },
        },
      ]
    case 4: {
      const toolCallId = `huge-${position}`
      const callId = `huge-call-${position}`
      const lines = Array.from({ length: 6_000 }, (_, line) => `${line}\t${'row of a very large tool output '.repeat(2)}<td>${line}</td>`)
      return [
        { kind: 'tool_call', payload: { name: 'read_file', arguments: { path: '/var/log/huge.log' } }, refs: { requestId, callId, toolCallId } },
        {
          kind: 'tool_result',
          payload: { name: 'read_file', result: lines.join('\n') },
          refs: { requestId, callId, toolCallId },
          meta: { truncated: { by: 'bytes', totalLines: 90_000, totalBytes: 9_000_000 } },
        },
        { kind: 'message', payload: { role: 'assistant', content: 'The log is long.' }, refs: { requestId, callId: `${callId}-answer` } },
      ]
    }
    case 5:
      return [
        {
          kind: 'message',
          payload: { role: 'assistant', content: 'The answer was cut off mid-' },
          refs: { requestId, callId: `cut-${position}` },
          meta: { interrupted: true },
        },
      ]
    default:
      return [
        {
          kind: 'message',
          payload: { role: 'user', content: `${'🙂 東京 <script>alert(1)</script> '.repeat(Math.floor(random() * 200))}` },
          refs: { requestId },
        },
      ]
  }
}

/** The entries of a built random thread as inputs, with the extras mixed in at random places. */
function mixed(entries: readonly EntryInput[], random: () => number, extras: number): EntryInput[] {
  const result = [...entries]
  for (let extra = 0; extra < extras; extra++) {
    // Only between units: a tool call keeps its results right after it.
    const boundaries = [
      0,
      ...result.map((entry, index) => (entry.kind === 'tool_call' || entry.kind === 'tool_result' ? -1 : index + 1)).filter((index) => index > 0),
    ]
    const at = boundaries[Math.floor(random() * boundaries.length)] ?? result.length
    result.splice(at, 0, ...extraEntry(random, extra))
  }
  return result
}

function recordedCalls(entries: readonly EntryInput[], policy: ContextPolicy, random: () => number): RecordedCall[] {
  const callIds = [...new Set(entries.map((entry) => entry.refs?.callId).filter((callId): callId is string => callId !== undefined))]
  return callIds.map((callId, position) => {
    const model = models[Math.floor(random() * models.length)]
    const reported = random() < 0.7
    return {
      callId,
      policy,
      ...(model === undefined ? {} : { model }),
      ...(reported
        ? {
            usage: {
              inputTokens: Math.floor(random() * 50_000),
              outputTokens: Math.floor(random() * 900),
              ...(random() < 0.6 ? { cachedInputTokens: Math.floor(random() * 30_000) } : {}),
            },
          }
        : {}),
      stopReason: stopReasons[Math.floor(random() * stopReasons.length)] as string,
      startedAt: Date.UTC(2026, 10, 1) + position * 61_000,
    }
  })
}

/** `count` varied threads from `seed`, then the fixed cases: an empty thread, and an image sent and answered. */
export function variedThreads(seed: number, count: number, policy: ContextPolicy): VariedThread[] {
  const random = randomSource(seed)
  // Half of any size, half long (up to a few hundred entries): long threads fill windows and budgets.
  const sampled = fc.sample(fc.oneof(actionsArbitrary, fc.array(actionArbitrary, { minLength: 40, maxLength: 200, size: 'max' })), {
    seed,
    numRuns: count,
  })
  const threads = sampled.map((actions, index): VariedThread => {
    const built = buildThread(actions, `varied-${index}`)
    const inputs: EntryInput[] = built.entries.map(
      (entry) =>
        ({ kind: entry.kind, payload: entry.payload, refs: entry.refs, ...(entry.meta === undefined ? {} : { meta: entry.meta }) }) as EntryInput,
    )
    const entries = mixed(inputs, random, 1 + Math.floor(random() * 6))
    return { name: `random ${index} (${entries.length} entries)`, entries, calls: recordedCalls(entries, policy, random), attempts: random() < 0.7 }
  })
  const image: EntryInput[] = [
    {
      kind: 'message',
      payload: {
        role: 'user',
        content: 'what is this?',
        parts: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', source: { type: 'attachment', id: `sha256-${'ab'.repeat(32)}`, mediaType: 'image/png', bytes: 52_000 } },
        ],
      },
      refs: { requestId: 'r0' },
    },
    { kind: 'message', payload: { role: 'assistant', content: 'A harbour.' }, refs: { requestId: 'r0', callId: 'c0' } },
  ]
  // One of each extra, after a short conversation.
  const conversation = buildThread(fc.sample(fc.array(actionArbitrary, { minLength: 12, maxLength: 12 }), { seed, numRuns: 1 })[0] ?? []).entries
  const everyKind = [
    ...conversation.map((entry) => ({ kind: entry.kind, payload: entry.payload, refs: entry.refs }) as EntryInput),
    ...Array.from({ length: EXTRA_KINDS }, (_, kind) => extraEntry(random, kind, kind)).flat(),
  ]
  return [
    ...threads,
    {
      name: `one of each: images, files, a refusal, an unreadable entry, a huge tool output, a cut reply (${everyKind.length} entries)`,
      entries: everyKind,
      calls: recordedCalls(everyKind, policy, random),
      attempts: true,
    },
    { name: 'empty', entries: [], calls: [], attempts: false },
    { name: 'an image attached, then Calls', entries: image, calls: recordedCalls(image, policy, random), attempts: true },
  ]
}

/** Attempt `attempt` of a call, logged when it ended (for now or for good) without an answer: its record says how. */
export function unansweredAttempt(
  base: CallRecordOptions,
  call: Pick<CallAttempt, 'threadId' | 'callId' | 'requestId'>,
  attempt: number,
  status: CallAttempt['status'],
  timing: CallTiming,
  error: CallAttemptError,
): CallAttempt {
  const record = callRecord({ ...base, stopReason: status === 'aborted' ? 'abort' : 'error', timing })
  return { id: `${call.callId}#${attempt}`, ...call, attempt, status, record, error }
}

/** Records a failed, a retried and an aborted attempt of the thread's calls in the call log. */
export async function recordAttempts(stores: MemoryBackedStores, threadId: string, policy: ContextPolicy): Promise<void> {
  const counter = await createTokenCounter('heuristic')
  const thread = await stores.threads.load(threadId)
  const projection = project({ thread, policy, counter, tools: [] })
  const base = testCallOptions({ model: 'claude-sonnet-4-5', provider: 'anthropic', counter, policy, projection, basisSeq: thread.nextSeq })
  const startedAt = Date.UTC(2026, 10, 2)
  const late1 = { threadId, callId: 'late-1' }
  const late2 = { threadId, callId: 'late-2' }
  const rateLimited = { name: 'RateLimitError', message: 'rate limited: retry after 2 s', status: 429 }
  const badKey = { name: 'ProviderAuthError', message: '<b>invalid</b> x-api-key', status: 401 }
  const stopped = { name: 'AbortError', message: 'The request was aborted.' }
  const attempts = [
    unansweredAttempt(base, late1, 1, 'retried', { startedAt, durationMs: 300, attempts: 1 }, rateLimited),
    unansweredAttempt(base, late1, 2, 'failed', { startedAt: startedAt + 2_000, durationMs: 120, attempts: 2 }, badKey),
    unansweredAttempt(base, late2, 1, 'aborted', { startedAt: startedAt + 9_000, firstTokenMs: 380, durationMs: 2_100, attempts: 1 }, stopped),
  ]
  for (const attempt of attempts) await stores.calls.recordAttempt(attempt)
}
