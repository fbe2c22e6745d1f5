import fc from 'fast-check'
import type { ContentPart, Entry, EntryInput } from '../entries/entry'
import { createThread, type Thread } from '../entries/thread'
import type { PolicyOptions } from '../policy/policy'
import type { PendingMessage } from '../project/types'
import type { ToolSchema } from '../tokens/token-counter'

/**
 * Random threads for property tests: what real sessions contain, plus the awkward parts —
 * parallel calls, failed and unresolved calls, results arriving after later messages,
 * summaries, resets, pins and unpins, system notes, unicode, emoji, CJK, empty text.
 */
export type Action =
  /** With `parts`, `content` must be `partsText(parts)`. */
  | { type: 'user'; content: string; parts?: readonly ContentPart[] }
  | { type: 'assistant'; content: string }
  | { type: 'system'; content: string }
  | {
      type: 'call'
      text: string
      repeat: boolean
      calls: { name: string; city: string; outcome: 'result' | 'error' | 'unresolved' | 'late'; output: string }[]
    }
  | { type: 'summary'; fromFraction: number; toFraction: number; content: string }
  | { type: 'reset' }
  | { type: 'pin'; fraction: number; unpin: boolean }

const samples = [
  'Oslo',
  '東京都の天気は？',
  '🙂🚀 ok',
  'naïve café',
  '',
  'a\nb\n\nc',
  '<script>x</script>',
  '{"json": [1, 2]}',
  'Ünïcödé ẞ',
  '한국어 문장',
  '👨‍👩‍👧‍👦 family',
]

export const textArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...samples) },
  { weight: 3, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.lorem({ maxCount: 40 }) },
)

const callArbitrary = fc.record({
  name: fc.constantFrom('weather', 'search', 'read_file', 'calc'),
  city: textArbitrary,
  outcome: fc.constantFrom('result', 'result', 'result', 'error', 'unresolved', 'late') as fc.Arbitrary<'result' | 'error' | 'unresolved' | 'late'>,
  output: textArbitrary,
})

export const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('user' as const), content: textArbitrary }) },
  { weight: 5, arbitrary: fc.record({ type: fc.constant('assistant' as const), content: textArbitrary }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('system' as const), content: textArbitrary }) },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('call' as const),
      text: textArbitrary,
      // Agents often repeat a call with the same arguments and get the same output: dedupe's case.
      repeat: fc.boolean(),
      calls: fc.array(callArbitrary, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('summary' as const),
      fromFraction: fc.double({ min: 0, max: 1, noNaN: true }),
      toFraction: fc.double({ min: 0, max: 1, noNaN: true }),
      content: textArbitrary,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'reset' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('pin' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }), unpin: fc.boolean() }),
  },
)

function linesAsParts(text: string): { parts?: { type: 'text'; text: string }[] } {
  return text.includes('\n') ? { parts: text.split('\n').map((line) => ({ type: 'text', text: line })) } : {}
}

/** Builds a thread from actions; every append goes through `Thread.append`, so it is valid by construction. */
export function buildThread(actions: readonly Action[], id = 'random'): Thread {
  let counter = 0
  const thread = createThread({ id, now: () => 1_700_000_000_000 + counter, createId: () => `e${counter++}` })
  const late: EntryInput[] = []
  let callNumber = 0
  let previousCalls: Extract<Action, { type: 'call' }>['calls'] | undefined
  for (const action of actions) {
    switch (action.type) {
      case 'user':
      case 'assistant':
      case 'system':
        thread.append({
          kind: 'message',
          payload:
            action.type === 'user' && action.parts !== undefined
              ? { role: 'user', content: action.content, parts: action.parts }
              : { role: action.type, content: action.content },
        })
        // Results that arrive after a later message (a slow parallel tool) land here.
        if (action.type === 'user' && late.length > 0) thread.appendMany(late.splice(0))
        break
      case 'call': {
        const callId = `call-${callNumber++}`
        if (action.text !== '') thread.append({ kind: 'message', payload: { role: 'assistant', content: action.text }, refs: { callId } })
        const source = action.repeat && previousCalls !== undefined ? previousCalls : action.calls
        previousCalls = source
        const calls = source.map((call, position) => ({ ...call, toolCallId: `${callId}_${position}` }))
        thread.appendMany(
          // Every other call keeps its arguments as spaced text (as an imported call does); no extra draw, so seeds keep their threads.
          calls.map((call, position) => ({
            kind: 'tool_call',
            payload: {
              name: call.name,
              arguments: { city: call.city },
              ...(position % 2 === 1 ? { argumentsText: JSON.stringify({ city: call.city }, null, 1) } : {}),
            },
            refs: { callId, toolCallId: call.toolCallId },
          })),
        )
        for (const call of calls) {
          const refs = { callId, toolCallId: call.toolCallId }
          // A result of several lines is stored as text parts, one per line (as an imported tool message's parts are).
          if (call.outcome === 'result')
            thread.append({ kind: 'tool_result', payload: { name: call.name, result: call.output, ...linesAsParts(call.output) }, refs })
          else if (call.outcome === 'error') thread.append({ kind: 'tool_result', payload: { name: call.name, error: call.output }, refs })
          else if (call.outcome === 'late')
            late.push({ kind: 'tool_result', payload: { name: call.name, result: { text: call.output, items: [1, 2] } }, refs })
        }
        break
      }
      case 'summary': {
        if (thread.nextSeq === 0) break
        const last = thread.nextSeq - 1
        const a = Math.floor(action.fromFraction * last)
        const b = Math.floor(action.toFraction * last)
        thread.append({ kind: 'summary', payload: { fromSeq: Math.min(a, b), toSeq: Math.max(a, b), content: action.content } })
        break
      }
      case 'reset':
        thread.append({ kind: 'context_op', payload: { op: 'reset', reason: 'new topic' } })
        break
      case 'pin':
        if (thread.nextSeq === 0) break
        thread.append({
          kind: 'context_op',
          payload: { op: action.unpin ? 'unpin' : 'pin', target: Math.floor(action.fraction * (thread.nextSeq - 1)), reason: 'test' },
        })
        break
    }
  }
  return thread
}

/** Action lists from empty to a few hundred entries: small ones find edge cases, big ones find drops. */
export const actionsArbitrary: fc.Arbitrary<Action[]> = fc.oneof(
  fc.array(actionArbitrary, { maxLength: 12 }),
  fc.array(actionArbitrary, { maxLength: 60, size: 'max' }),
  fc.array(actionArbitrary, { minLength: 60, maxLength: 150, size: 'max' }),
)

export const policyOptionsArbitrary: fc.Arbitrary<PolicyOptions> = fc
  .record(
    {
      maxInputTokens: fc.integer({ min: 20, max: 3000 }),
      reserveFraction: fc.double({ min: 0, max: 0.6, noNaN: true }),
      maxMessages: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      maxTurns: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
      unresolvedToolCalls: fc.constantFrom('drop', 'interrupt') as fc.Arbitrary<'drop' | 'interrupt'>,
      summaryRole: fc.constantFrom('system', 'user') as fc.Arbitrary<'system' | 'user'>,
      systemPrompt: fc.option(textArbitrary, { nil: undefined }),
      keepLastTurns: fc.integer({ min: 0, max: 4 }),
      toolTrace: fc.constantFrom('transparent', 'boundary', 'masked') as fc.Arbitrary<'transparent' | 'boundary' | 'masked'>,
      dedupeToolResults: fc.boolean(),
      pruneToolOutputsOverTokens: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
      pruneKeepLines: fc.integer({ min: 1, max: 6 }),
      pruneKeepBytes: fc.integer({ min: 1, max: 80 }),
      cacheFriendly: fc.boolean(),
      cacheLowWaterRatio: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      cache: fc.record(
        {
          anthropic: fc.constantFrom('explicit', 'auto', 'off') as fc.Arbitrary<'explicit' | 'auto' | 'off'>,
          ttl: fc.constantFrom('5m', '1h') as fc.Arbitrary<'5m' | '1h'>,
          openAIKey: fc.oneof(fc.constant(false as const), fc.string({ minLength: 1, maxLength: 40 })),
          openAI: fc.constantFrom('auto', 'off') as fc.Arbitrary<'auto' | 'off'>,
          reduceEveryTurns: fc.integer({ min: 1, max: 4 }),
          memoryHoldTurns: fc.integer({ min: 1, max: 6 }),
          memoryRefreshTokens: fc.integer({ min: 0, max: 400 }),
        },
        { requiredKeys: [] },
      ),
      includeKinds: fc.option(fc.subarray(['message', 'tool_call', 'tool_result', 'summary'] as const, { minLength: 1 }), {
        nil: undefined,
        freq: 4,
      }),
    },
    { requiredKeys: ['maxInputTokens', 'reserveFraction', 'unresolvedToolCalls', 'summaryRole'] },
  )
  .map(({ reserveFraction, ...options }) => {
    const policy: Record<string, unknown> = { ...options, reserveOutputTokens: Math.floor(options.maxInputTokens * reserveFraction) }
    for (const key of Object.keys(policy)) if (policy[key] === undefined) delete policy[key]
    return policy as PolicyOptions
  })

export const pendingArbitrary: fc.Arbitrary<PendingMessage[]> = fc.array(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system') as fc.Arbitrary<'user' | 'assistant' | 'system'>, content: textArbitrary }),
  { maxLength: 2 },
)

export const sampleTools: readonly ToolSchema[] = [
  {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  { name: 'search', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
]

/** Every seq of the unit an entry belongs to (a message, or a model call with its results). */
export function unitMembers(thread: Thread, seq: number): number[] {
  const entry = thread.bySeq(seq) as Entry
  const callId = entry.refs.callId
  const toolCallId = entry.refs.toolCallId
  let calls: number[]
  if (callId !== undefined && (entry.kind === 'tool_call' || (entry.kind === 'message' && thread.index.seqsByCallId.has(callId)))) {
    calls = [...(thread.index.seqsByCallId.get(callId) ?? [])]
  } else if (toolCallId !== undefined) calls = [thread.index.callSeqByToolCallId.get(toolCallId) as number]
  else return [seq]
  const results = calls
    .map((member) => thread.bySeq(member) as Entry)
    .filter((member) => member.kind === 'tool_call')
    .map((call) => thread.index.resultSeqByToolCallId.get(call.refs.toolCallId as string))
    .filter((resultSeq): resultSeq is number => resultSeq !== undefined)
  return [...calls, ...results]
}
