// The browser half of the loop bench (packages/agent/bench/loop.bench.ts drives it): what the session
// loop itself costs per model call — projection, thread writes and bookkeeping — with the model's
// streaming, tool execution and summarizing timed separately and taken out. Measures and returns
// figures; nothing here fails on a slow number.
import { createTokenCounter, definePolicy, extractiveSummarizer, presets, project } from '@threadlens/core'
import type { ContextPolicy, EntryInput, Summarizer, TokenCounter } from '@threadlens/core'
import { hashJson } from '@threadlens/core/internal'
import { createCallLog, createThreadStore, openThreadlensDB, type ThreadStore } from '@threadlens/store'
import { z } from 'zod'
import type { ModelClient, ModelStreamEvent } from '../../model/model-client'
import { scriptedModel, type ScriptedReply } from '../../model/scripted-model'
import { createSession } from '../../session/create-session'
import { defineTool } from '../../tools/define-tool'

// Repeated on purpose: the same percentiles as packages/store/src/testing/harness/bench-page.ts (each harness page
// stands alone: the test kit's entry would bring fast-check and the fake providers into the page).
export interface Timing {
  readonly runs: number
  readonly p50: number
  readonly p95: number
  readonly min: number
}

export type BenchPolicyName = 'default' | 'long'

export interface LoopBenchRow {
  /** `default`: `definePolicy()` (8k window, what a session uses unless told); `long`: `presets.longContext()` (128k). */
  readonly policy: BenchPolicyName
  readonly threadEntries: number
  readonly requests: number
  readonly modelCalls: number
  /** Per model call: a request's wall time minus model streaming, tool execution and summarizing, over its model calls. */
  readonly overhead: Timing
  /** Per model call: from the loop asking for memory (just before `project`) to the model's first chunk being asked for. */
  readonly projection: Timing
  /** Per model call: time inside `threads.appendMany` (token counting at append + one IndexedDB transaction each). */
  readonly writes: Timing
  /** Per model call: everything else (lock, policy read, mirror ingest, call records, events). */
  readonly rest: Timing
  /** Each `appendMany` inside the loop (the session's own subscription is live and re-reads after each commit). */
  readonly appendLatency: Timing
  readonly appendsPerCall: number
  /** `appendMany` of one message on the same thread with no session and no subscriber. */
  readonly appendAlone: Timing
  /** `hashJson` of the final projection's messages alone (the call record's `messagesHash`, once per call). */
  readonly hashAlone: Timing
  /** Per model call, excluded above: the scripted model's streaming. */
  readonly model: Timing
  /** `project()` alone on the final thread, outside the loop. */
  readonly projectAlone: Timing
  /** Compactions during the measured requests (their summarizer time is excluded, the rest is not). */
  readonly compactions: number
  readonly projectedMessages: number
  readonly projectedTokens: number
}

export interface LoopBenchResult {
  readonly userAgent: string
  readonly crossOriginIsolated: boolean
  readonly rows: readonly LoopBenchRow[]
}

export interface LoopBenchOptions {
  /** Default `[1000, 10000]`. */
  readonly sizes?: readonly number[]
  /** Measured requests per size and policy (two model calls each: a tool call, then an answer). Default 40. */
  readonly requests?: number
  /** Requests run first and not measured (the first one may compact a seeded thread). Default 3. */
  readonly warmup?: number
  /** Default `['default', 'long']`. */
  readonly policies?: readonly BenchPolicyName[]
}

function timing(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0
  return { runs: sorted.length, p50: at(0.5), p95: at(0.95), min: sorted[0] ?? 0 }
}

const sentences = [
  'Plan a weekend in Oslo with a museum, a fjord trip and somewhere warm to eat when it rains.',
  'The ferry leaves at 10:15 from pier 3; tickets are cheaper online, and the return is at 16:40.',
  'Here is the itinerary: Saturday morning the Munch museum, lunch at Mathallen, then the opera roof.',
]

/** About 300 bytes per entry, in turns: a user message, then an answer, every fifth with a tool call and its result first. */
function seedInputs(count: number): EntryInput[] {
  const inputs: EntryInput[] = []
  for (let turn = 0; inputs.length < count; turn++) {
    const text = (offset: number) =>
      `turn ${turn}: ${sentences[(turn + offset) % 3]} ${sentences[(turn + offset + 1) % 3]} ${sentences[(turn + offset + 2) % 3]}`
    inputs.push({ kind: 'message', payload: { role: 'user', content: text(0) } })
    if (turn % 5 === 4 && inputs.length + 4 <= count) {
      const refs = { callId: `seed-c${turn}`, requestId: `seed-r${turn}` }
      inputs.push({ kind: 'message', payload: { role: 'assistant', content: 'Let me search.' }, refs })
      inputs.push({
        kind: 'tool_call',
        payload: { name: 'lookup', arguments: { query: text(1).slice(0, 80) } },
        refs: { ...refs, toolCallId: `seed-t${turn}` },
      })
      inputs.push({
        kind: 'tool_result',
        payload: { name: 'lookup', result: { answer: text(2).slice(0, 200) } },
        refs: { ...refs, toolCallId: `seed-t${turn}` },
      })
    }
    if (inputs.length < count) inputs.push({ kind: 'message', payload: { role: 'assistant', content: text(1) } })
  }
  return inputs.slice(0, count)
}

/** Time spent inside a call, added to `clock.total`. */
interface Clock {
  total: number
}

async function timed<T>(clock: Clock, body: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await body()
  } finally {
    clock.total += performance.now() - started
  }
}

/** The model with the time spent inside its iterator taken down; the loop's own work between chunks is not. */
function timedModel(model: ModelClient, clock: Clock, onFirstChunkAsked: () => void): ModelClient {
  return {
    id: model.id,
    provider: model.provider,
    stream(request) {
      const inner = model.stream(request)[Symbol.asyncIterator]()
      let first = true
      const iterator: AsyncIterator<ModelStreamEvent> = {
        next: () => {
          if (first) onFirstChunkAsked()
          first = false
          return timed(clock, () => inner.next())
        },
        return: (value?: unknown) => timed(clock, async () => (await inner.return?.(value)) ?? { done: true, value: undefined }),
      }
      return { [Symbol.asyncIterator]: () => iterator }
    },
  }
}

function timedStore(threads: ThreadStore, writes: Clock, samples: number[]): ThreadStore {
  return new Proxy(threads, {
    get(target, property, receiver) {
      if (property === 'appendMany') {
        return async (threadId: string, inputs: readonly EntryInput[]) => {
          const before = writes.total
          const entries = await timed(writes, () => target.appendMany(threadId, inputs))
          samples.push(writes.total - before)
          return entries
        }
      }
      const value: unknown = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function policyFor(name: BenchPolicyName): ContextPolicy {
  return name === 'long' ? presets.longContext() : definePolicy()
}

async function benchOne(
  counter: TokenCounter,
  entries: number,
  policyName: BenchPolicyName,
  requests: number,
  warmup: number,
): Promise<LoopBenchRow> {
  const name = `threadlens-agent-bench-${entries}-${policyName}-${Date.now()}`
  const db = await openThreadlensDB({ name })
  const threads = createThreadStore(db, { counters: [counter] })
  const record = await threads.create({ title: `bench ${entries}` })
  await threads.appendMany(record.id, seedInputs(entries))

  const clocks = { model: { total: 0 }, tools: { total: 0 }, summarizer: { total: 0 }, writes: { total: 0 }, projection: { total: 0 } }
  let projectionStarted = 0
  const projectionSamples: number[] = []
  const script = ({ callIndex }: { callIndex: number }): ScriptedReply =>
    callIndex % 2 === 0
      ? { text: 'Let me look that up.', toolCalls: [{ id: `bench-${callIndex}`, name: 'lookup', arguments: { query: 'ferry times from Oslo' } }] }
      : { text: 'The ferry leaves at 10:15 from pier 3; the last one back is at 16:40.' }
  const model = timedModel(scriptedModel({ script }), clocks.model, () => {
    const elapsed = performance.now() - projectionStarted
    clocks.projection.total += elapsed
    projectionSamples.push(elapsed)
  })
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks something up',
    parameters: z.object({ query: z.string() }),
    idempotent: true,
    execute: ({ query }) => ({ answer: `${query}: 10:15 from pier 3, back at 16:40` }),
  })
  const tools = [
    {
      ...lookup,
      execute: (args: unknown, context: Parameters<typeof lookup.execute>[1]) =>
        timed(clocks.tools, async () => lookup.execute(args as { query: string }, context)),
    },
  ]
  const inner = extractiveSummarizer()
  const summarizer: Summarizer = { name: inner.name, summarize: (input) => timed(clocks.summarizer, () => inner.summarize(input)) }
  const policy = policyFor(policyName)
  const appendSamples: number[] = []
  const session = createSession({
    threads: timedStore(threads, clocks.writes, appendSamples),
    // As an app opens it (openThreadlensStores): failed attempts and calibration on record.
    callLog: createCallLog(db),
    threadId: record.id,
    model,
    tools,
    policy,
    counter,
    summarizer,
    memory: () => {
      projectionStarted = performance.now()
      return undefined
    },
  })

  const overhead: number[] = []
  const projection: number[] = []
  const writes: number[] = []
  const rest: number[] = []
  const modelPerCall: number[] = []
  let compactions = 0
  let modelCalls = 0
  for (let request = 0; request < warmup + requests; request++) {
    for (const clock of Object.values(clocks)) clock.total = 0
    projectionSamples.length = 0
    if (request === warmup) appendSamples.length = 0
    let calls = 0
    let compacted = 0
    let failure: unknown
    const started = performance.now()
    for await (const event of session.send(`Question ${request}: when does the ferry leave?`)) {
      if (event.type === 'projection-end') calls++
      if (event.type === 'compaction-end') compacted++
      if (event.type === 'error') failure = event.error
    }
    const wall = performance.now() - started
    if (failure !== undefined) throw failure
    if (request < warmup) continue
    const loop = wall - clocks.model.total - clocks.tools.total - clocks.summarizer.total
    overhead.push(loop / calls)
    projection.push(...projectionSamples)
    writes.push(clocks.writes.total / calls)
    rest.push((loop - clocks.projection.total - clocks.writes.total) / calls)
    modelPerCall.push(clocks.model.total / calls)
    compactions += compacted
    modelCalls += calls
  }

  const thread = await session.thread()
  const alone: number[] = []
  let last = project({ thread, policy, counter, tools: tools.map((tool) => tool.schema) })
  for (let run = 0; run < 20; run++) {
    const started = performance.now()
    last = project({ thread, policy, counter, tools: tools.map((tool) => tool.schema) })
    alone.push(performance.now() - started)
  }
  const measuredAppends = appendSamples.length
  const appendLatency = timing(appendSamples)
  const hashes: number[] = []
  for (let run = 0; run < 20; run++) {
    const started = performance.now()
    hashJson(last.messages)
    hashes.push(performance.now() - started)
  }
  session.close()
  const appendAlone: number[] = []
  for (let run = 0; run < 30; run++) {
    const started = performance.now()
    await threads.appendMany(record.id, [{ kind: 'message', payload: { role: 'user', content: `One more question, number ${run}?` } }])
    appendAlone.push(performance.now() - started)
  }
  db.close()
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error)
  })
  return {
    policy: policyName,
    threadEntries: entries,
    requests,
    modelCalls,
    overhead: timing(overhead),
    projection: timing(projection),
    writes: timing(writes),
    rest: timing(rest),
    appendLatency,
    appendsPerCall: measuredAppends / modelCalls,
    appendAlone: timing(appendAlone),
    hashAlone: timing(hashes),
    model: timing(modelPerCall),
    projectAlone: timing(alone),
    compactions,
    projectedMessages: last.messages.length,
    projectedTokens: last.meta.tokens.total,
  }
}

export async function runLoopBench(options: LoopBenchOptions = {}): Promise<LoopBenchResult> {
  const counter = await createTokenCounter('o200k_base')
  const rows: LoopBenchRow[] = []
  for (const entries of options.sizes ?? [1000, 10_000]) {
    for (const policy of options.policies ?? ['default', 'long'])
      rows.push(await benchOne(counter, entries, policy, options.requests ?? 40, options.warmup ?? 3))
  }
  return { userAgent: navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated, rows }
}
