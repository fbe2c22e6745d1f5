// A page for the agent's real-Chromium recovery tests (e2e/agent-recovery.spec.ts) and the loop
// bench. Every function takes and returns plain JSON, so Playwright can call it with page.evaluate.
// Tool executions are counted in localStorage (written synchronously, before a tool blocks), so the
// count survives a reload that kills the tool mid-call.
import { createTokenCounter, type Entry, type ProjectedMessage, type TokenCounter } from '@threadlens/core'
import {
  createThreadStore,
  openThreadlensDB,
  type SubscribeOptions,
  type ThreadlensDB,
  type ThreadStore,
  type ThreadStoreListener,
} from '@threadlens/store'
import { z } from 'zod'
import { scriptedModel, type ScriptAnswer, type ScriptedModel } from '../../model/scripted-model'
import { createSession, type Session } from '../../session/create-session'
import type { SessionEvent } from '../../session/session-events'
import { defineTool, type Tool } from '../../tools/define-tool'
import { runLoopBench } from './bench-page'

export interface HarnessError {
  readonly name: string
  readonly message: string
}

/** One stored entry, flattened to what the tests assert on. */
export interface EntrySummary {
  readonly seq: number
  readonly kind: Entry['kind']
  readonly role?: string
  readonly content?: string
  readonly name?: string
  readonly toolCallId?: string
  readonly requestId?: string
  readonly result?: unknown
  readonly error?: string
  readonly interrupted?: boolean
}

/** A session event without its bulky parts (projections, per-chunk text). */
export interface EventSummary {
  readonly type: SessionEvent['type']
  readonly toolCallId?: string
  readonly name?: string
  readonly isError?: boolean
  readonly output?: string
  readonly text?: string
  readonly iteration?: number
  readonly error?: HarnessError
}

export interface RunSummary {
  readonly finished: boolean
  readonly events: readonly EventSummary[]
}

export interface Execution {
  readonly toolCallId: string
  readonly name: string
  readonly phase: 'start' | 'end'
}

export interface SessionSetup {
  readonly threadId: string
  /** The model's replies, one per call. */
  readonly script: readonly ScriptAnswer[]
  /** Tools whose `execute` waits for `release(name)` (after counting its start). Default: none. */
  readonly blocking?: readonly string[]
  /** Keep the store's live events from the session's mirror until `flushMirror()`. Default: false. */
  readonly holdMirror?: boolean
}

let databaseName = ''
let db: ThreadlensDB | undefined
let threads: ThreadStore | undefined
let counter: TokenCounter | undefined
let session: Session | undefined
let model: ScriptedModel | undefined
const blocking = new Set<string>()
const waiting = new Map<string, (() => void)[]>()
let holding = false
const held: (() => void)[] = []
const runs: { events: EventSummary[]; finished: boolean; done: Promise<void> }[] = []

function store(): ThreadStore {
  if (threads === undefined) throw new Error('call agentHarness.open(name) first')
  return threads
}

function current(): Session {
  if (session === undefined) throw new Error('call agentHarness.startSession(setup) first')
  return session
}

const executionsKey = () => `threadlens-agent-harness:executions:${databaseName}`

function executions(): Execution[] {
  return JSON.parse(localStorage.getItem(executionsKey()) ?? '[]') as Execution[]
}

function record(execution: Execution): void {
  localStorage.setItem(executionsKey(), JSON.stringify([...executions(), execution]))
}

function gate(name: string, signal: AbortSignal): Promise<void> {
  if (!blocking.has(name)) return Promise.resolve()
  return new Promise<void>((resolve, reject) => {
    waiting.set(name, [...(waiting.get(name) ?? []), resolve])
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}

/** A tool that counts its executions by toolCallId and may block until released. */
function countingTool<T>(
  name: string,
  idempotent: boolean,
  parameters: z.ZodType<T>,
  output: (args: T) => Record<string, string | number>,
): Tool<unknown> {
  return defineTool({
    name,
    description: `${name} (harness tool, ${idempotent ? 'idempotent' : 'not idempotent'})`,
    parameters,
    idempotent,
    async execute(args, context) {
      record({ toolCallId: context.toolCallId, name, phase: 'start' })
      await gate(name, context.signal)
      record({ toolCallId: context.toolCallId, name, phase: 'end' })
      return output(args)
    },
  }) as Tool<unknown>
}

const tools = [
  countingTool('lookup', true, z.object({ query: z.string() }), ({ query }) => ({ answer: `ferry for "${query}" leaves at 10:15` })),
  countingTool('charge', false, z.object({ amount: z.number() }), ({ amount }) => ({ charged: amount, receipt: 'R-1' })),
]

function errorSummary(error: unknown): HarnessError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'unknown', message: String(error) }
}

function summarize(event: SessionEvent, events: EventSummary[]): void {
  switch (event.type) {
    case 'text-delta': {
      const last = events.at(-1)
      if (last?.type === 'text-delta') events[events.length - 1] = { ...last, text: `${last.text ?? ''}${event.text}` }
      else events.push({ type: 'text-delta', text: event.text })
      return
    }
    case 'projection-end':
      events.push({ type: event.type, iteration: event.iteration })
      return
    case 'tool-call':
    case 'tool-call-start':
      events.push({ type: event.type, toolCallId: event.toolCallId, name: event.name })
      return
    case 'tool-result':
      events.push({ type: event.type, toolCallId: event.toolCallId, name: event.name, isError: event.isError, output: event.output })
      return
    case 'done':
      events.push({ type: event.type, text: event.text })
      return
    case 'error':
      events.push({ type: event.type, error: errorSummary(event.error) })
      return
    default:
      events.push({ type: event.type })
  }
}

function start(stream: AsyncIterable<SessionEvent>): number {
  const run = { events: [] as EventSummary[], finished: false, done: Promise.resolve() }
  run.done = (async () => {
    try {
      for await (const event of stream) summarize(event, run.events)
    } catch (error) {
      // The loop reports failures as events; a throw here is a bug in it.
      run.events.push({ type: 'error', error: { name: 'thrown', message: errorSummary(error).message } })
    } finally {
      run.finished = true
    }
  })()
  runs.push(run)
  return runs.length - 1
}

/**
 * The store as the session sees it, with the live events of `subscribe` kept back until
 * `flushMirror()`: a mirror that has not yet heard of another tab's commits, which the store's
 * subscription (Dexie liveQuery over a BroadcastChannel) allows at any moment.
 */
function heldBack(threadStore: ThreadStore): ThreadStore {
  return new Proxy(threadStore, {
    get(target, property, receiver) {
      if (property === 'subscribe') {
        return (threadId: string, listener: ThreadStoreListener, options?: SubscribeOptions) =>
          target.subscribe(threadId, (event) => (holding ? held.push(() => listener(event)) : listener(event)), options)
      }
      const value: unknown = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function entrySummary(entry: Entry): EntrySummary {
  const base = {
    seq: entry.seq,
    kind: entry.kind,
    ...(entry.refs.toolCallId === undefined ? {} : { toolCallId: entry.refs.toolCallId }),
    ...(entry.refs.requestId === undefined ? {} : { requestId: entry.refs.requestId }),
    ...(entry.meta?.interrupted === true ? { interrupted: true } : {}),
  }
  switch (entry.kind) {
    case 'message':
      return { ...base, role: entry.payload.role, content: entry.payload.content }
    case 'tool_call':
      return { ...base, name: entry.payload.name }
    case 'tool_result':
      return {
        ...base,
        name: entry.payload.name,
        ...(entry.payload.error === undefined ? { result: entry.payload.result } : { error: entry.payload.error }),
      }
    default:
      return base
  }
}

const harness = {
  async open(name: string): Promise<void> {
    databaseName = name
    db = await openThreadlensDB({ name })
    counter = await createTokenCounter('o200k_base')
    threads = createThreadStore(db, { counters: [counter] })
    await db.open()
  },
  async create(title: string): Promise<string> {
    return (await store().create({ title })).id
  },
  /** A new session over the thread (replacing this page's previous one). */
  startSession(setup: SessionSetup): void {
    session?.close()
    blocking.clear()
    for (const name of setup.blocking ?? []) blocking.add(name)
    holding = setup.holdMirror ?? false
    held.length = 0
    model = scriptedModel({ script: setup.script })
    session = createSession({
      threads: holding ? heldBack(store()) : store(),
      threadId: setup.threadId,
      model,
      tools,
      counter: counter as TokenCounter,
    })
  },
  /** Starts `session.send` without waiting; returns a run id for `run` and `waitRun`. */
  send: (text: string): number => start(current().send(text)),
  resume: (): number => start(current().resume()),
  /** Delivers the store events `holdMirror` kept back, and every later one as it comes. */
  flushMirror(): void {
    holding = false
    for (const deliver of held.splice(0)) deliver()
  },
  run: (runId: number): RunSummary => {
    const run = runs[runId]
    if (run === undefined) throw new Error(`no run ${runId}`)
    return { finished: run.finished, events: run.events }
  },
  async waitRun(runId: number): Promise<RunSummary> {
    await runs[runId]?.done
    return harness.run(runId)
  },
  /** Unblocks a tool: the executions waiting now, and every later one. */
  release(name: string): void {
    blocking.delete(name)
    for (const resolve of waiting.get(name) ?? []) resolve()
    waiting.delete(name)
  },
  executions,
  status: () => current().getSnapshot().status,
  /** The thread as stored now (a fresh read). */
  entries: async (threadId: string): Promise<EntrySummary[]> => (await store().load(threadId)).entries.map(entrySummary),
  /** What a fresh load sees as tool calls without a result. */
  unresolved: async (threadId: string): Promise<string[]> => [...(await store().load(threadId)).index.unresolvedToolCallIds],
  /** Loads the session's live mirror (it then follows every tab's appends). */
  async watch(): Promise<number> {
    return (await current().thread()).nextSeq
  },
  /** The session's live mirror, as it is now. */
  mirror: async (): Promise<EntrySummary[]> => (await current().thread()).entries.map(entrySummary),
  /** What the model was shown on its latest call. */
  lastModelRequest: (): readonly ProjectedMessage[] => model?.requests.at(-1)?.projection.messages ?? [],
  modelCalls: (): number => model?.requests.length ?? 0,
  bench: runLoopBench,
}

// Repeated on purpose: same shape as packages/store/src/testing/harness/harness-page.ts (each harness page names its
// own window global).
declare global {
  interface Window {
    agentHarness: typeof harness
  }
}

window.agentHarness = harness
export type AgentHarness = typeof harness
