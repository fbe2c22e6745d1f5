import {
  BudgetOverflowError,
  type CallRecord,
  compact,
  createTokenCounter,
  decideCompaction,
  definePolicy,
  extractiveSummarizer,
  project,
  type ContextPolicy,
  type Entry,
  type EntryInput,
  type ProjectionResult,
  type SessionSnapshot,
  type SessionSource,
  type SessionStatus,
  type Thread,
  type ThreadlensEvent,
  type TokenCounter,
  type ToolSchema,
} from '@threadlens/core'
import type { MessagePayload } from '@threadlens/core/internal'
import { partsText, type ContentPart } from '@threadlens/core/parts'
import { chooseMemoryText, memoryWindowKey, type HeldMemory } from '@threadlens/core/caching'
import {
  callHashes,
  callRecord,
  StoredHashes,
  type CallAttempt,
  type CallHashes,
  type CallTiming,
  type RecordedCall,
} from '@threadlens/core/calls'
import { assertFits, toolResultInput } from '@threadlens/core/compaction'
import { Subscribable } from '@threadlens/core/internal'
import { renderMemory } from '@threadlens/core/memory'
import type { ThreadRecord } from '@threadlens/store'
import { ContextTooLongError } from '../model/errors'
import type { ModelStreamEvent, ModelUsage, StopReason, ToolCallEvent } from '../model/model-client'
import type { RetryNotice } from '../model/stream-with-retries'
import type { Tool } from '../tools/define-tool'
import { MAX_CONTEXT_RECOVERIES, ModelCallBudget, maxModelCalls, policyWithin, serverLimitOf } from './context-recovery'
import { ToolCallIds } from './unique-tool-call-ids'
import { withNotices } from './with-notices'
import { attemptErrorOf, calibrationEvent } from './call-attempt-log'
import { executeTool } from './execute-tool'
import type { SendOptions, SessionOptions } from './session-options'
import { SessionBusyError, ThreadBusyError } from './errors'
import type { SessionEvent } from './session-events'
import { acquireThreadLock } from './thread-lock'

/** What one model call sent: enough to write its record and replay it. */
interface SentCall {
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  readonly basisSeq: number
  readonly hashes: CallHashes
}

interface RequestState {
  readonly requestId: string
  readonly policy: ContextPolicy
  readonly controller: AbortController
  iteration: number
}

/** The most calls a snapshot lists: older ones are on the thread's own records. */
const MAX_SNAPSHOT_CALLS = 50

function recentCalls(calls: readonly RecordedCall[], call: RecordedCall): readonly RecordedCall[] {
  return [...calls.slice(-(MAX_SNAPSHOT_CALLS - 1)), call]
}

const NOT_RERUN = 'interrupted: the page closed while this tool ran; it is not idempotent, so it was not run again'

/**
 * The chat session loop. The thread is written first and context is projected fresh for every
 * model call; nothing about the conversation lives only in memory.
 */
export class Session extends Subscribable<(snapshot: SessionSnapshot) => void> implements SessionSource {
  readonly threadId: string
  readonly #options: SessionOptions
  readonly #createId: () => string
  readonly #tools: ReadonlyMap<string, Tool<unknown>>
  readonly #stored = new StoredHashes()
  /** The memory text last sent and where the prompt stood then (memory hysteresis). */
  #heldMemory: HeldMemory | undefined
  readonly #executed = new Set<string>()
  readonly #deferred: (() => Promise<void>)[] = []
  #thread: Thread | undefined
  #unsubscribe: (() => void) | undefined
  #counter: TokenCounter | undefined
  #request: RequestState | undefined
  #snapshot: SessionSnapshot

  constructor(options: SessionOptions) {
    super()
    this.threadId = options.threadId
    this.#options = options
    this.#createId = options.createId ?? (() => globalThis.crypto.randomUUID())
    this.#tools = new Map((options.tools ?? []).map((tool) => [tool.name, tool]))
    this.#snapshot = {
      threadId: options.threadId,
      status: 'idle',
      requestId: undefined,
      pendingMessage: undefined,
      streamingText: '',
      runningTools: [],
      policy: options.policy,
      tools: (options.tools ?? []).map((tool) => tool.schema),
      memory: undefined,
      lastProjection: undefined,
      calls: [],
      lastError: undefined,
      deferredOperations: 0,
      retry: undefined,
      serverLimit: undefined,
    }
  }

  get status(): SessionStatus {
    return this.#snapshot.status
  }

  /** For `useSyncExternalStore`: the same object until something changes. */
  getSnapshot = (): SessionSnapshot => this.#snapshot

  #update(changes: Partial<SessionSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...changes }
    for (const listener of this.listeners) listener(this.#snapshot)
  }

  /** The session's live mirror of the thread (loaded on first use, kept in step with every tab). */
  async thread(): Promise<Thread> {
    if (this.#thread !== undefined) return this.#thread
    const thread = await this.#options.threads.load(this.threadId)
    this.#stored.addFrom(thread.entries)
    this.#thread = thread
    if (this.#request === undefined) this.#follow(thread)
    return thread
  }

  /** Keeps the mirror in step with commits from every tab, from its last seq on. */
  #follow(thread: Thread): void {
    this.#unsubscribe?.()
    this.#unsubscribe = this.#options.threads.subscribe(
      this.threadId,
      (event) => {
        if (event.type !== 'entry-append') return
        this.#stored.addFrom(event.entries)
        thread.ingest(event.entries)
      },
      { afterSeq: thread.nextSeq - 1 },
    )
  }

  /**
   * While a request holds the thread's lock this tab is its only driver, and it ingests its own
   * writes directly: listening meanwhile would only re-read each of them. It listens again, from
   * the mirror's last seq, when the request ends.
   */
  #pauseFollowing(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
  }

  /** Stops listening to the store. The session can be used again; it reloads on next use. */
  close(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    this.#thread = undefined
  }

  async #counterFor(policy: ContextPolicy): Promise<TokenCounter> {
    if (this.#options.counter !== undefined) return this.#options.counter
    if (this.#counter?.id !== policy.tokenizer) this.#counter = await createTokenCounter(policy.tokenizer)
    return this.#counter
  }

  async #policyFor(request: ContextPolicy | undefined, known?: ThreadRecord): Promise<ContextPolicy> {
    if (request !== undefined) return request
    const record = known ?? (await this.#options.threads.get(this.threadId))
    const threadPolicy = record?.metadata['policy']
    if (threadPolicy !== undefined && threadPolicy !== null && typeof threadPolicy === 'object') return definePolicy(threadPolicy as never)
    const calibrated = this.#options.calibratedPolicy
    if (calibrated !== undefined) {
      const counterId = this.#options.counter?.id ?? calibrated(undefined).tokenizer
      return calibrated(await this.#options.callLog?.calibration(this.#options.model.id, counterId))
    }
    return this.#options.policy ?? definePolicy()
  }

  async #append(inputs: readonly EntryInput[]): Promise<readonly Entry[]> {
    const entries = await this.#options.threads.appendMany(this.threadId, inputs)
    this.#stored.addFrom(entries)
    const thread = await this.thread()
    if (thread.nextSeq < (entries[0]?.seq ?? 0)) {
      // Someone else wrote in between and the live events have not arrived yet: read it again.
      this.close()
      await this.thread()
    } else thread.ingest(entries)
    return entries
  }

  /** Aborts the request in progress: streaming and tools stop, and the thread records what happened. */
  abort(reason?: unknown): void {
    this.#request?.controller.abort(reason ?? new DOMException('The request was aborted.', 'AbortError'))
  }

  /** Sends a user message and runs the loop until the model answers, streaming what happens. */
  send(text: string, options: SendOptions = {}): AsyncIterable<SessionEvent> {
    return this.#run(options, async (state) => {
      await this.#append([{ kind: 'message', payload: userPayload(text, options.parts), refs: { requestId: state.requestId } }])
      this.#update({ pendingMessage: undefined })
      return []
    }, text)
  }

  /**
   * After a reload: answers tool calls left without a result — idempotent tools run again, others
   * are recorded as interrupted; no call is ever run twice — then lets the model go on.
   */
  resume(options: SendOptions = {}): AsyncIterable<SessionEvent> {
    return this.#run(options, async (state) => {
      const thread = await this.thread()
      const calls = [...thread.index.unresolvedToolCallIds]
        .map((toolCallId) => thread.bySeq(thread.index.callSeqByToolCallId.get(toolCallId) as number))
        .filter((entry): entry is Extract<Entry, { kind: 'tool_call' }> => entry?.kind === 'tool_call')
      if (calls.length === 0) return false
      const events: SessionEvent[] = []
      for (const call of calls) {
        const tool = this.#tools.get(call.payload.name)
        const refs = { ...call.refs, toolCallId: call.refs.toolCallId as string }
        if (tool?.idempotent === true) {
          await this.#runTools([{ type: 'tool-call', toolCallId: refs.toolCallId, name: call.payload.name, arguments: call.payload.arguments, argumentsText: '' }], state, refs.callId ?? '', (event) => events.push(event))
        } else {
          await this.#append([{ kind: 'tool_result', payload: { name: call.payload.name, error: NOT_RERUN }, refs, meta: { interrupted: true } }])
          events.push({ type: 'tool-result', toolCallId: refs.toolCallId, name: call.payload.name, output: NOT_RERUN, isError: true })
        }
      }
      return events
    })
  }

  /** Pins an entry: always a candidate for the context. Deferred while a request runs. */
  pin(seq: number, reason = 'pinned'): Promise<void> {
    return this.#operation({ kind: 'context_op', payload: { op: 'pin', target: seq, reason } })
  }

  unpin(seq: number, reason = 'unpinned'): Promise<void> {
    return this.#operation({ kind: 'context_op', payload: { op: 'unpin', target: seq, reason } })
  }

  /** Hides everything before this point from later projections (nothing is deleted). Deferred while a request runs. */
  reset(reason = 'reset'): Promise<void> {
    return this.#operation({ kind: 'context_op', payload: { op: 'reset', reason } })
  }

  /** Summarizes what the policy allows now. Deferred while a request runs. */
  compactNow(policy?: ContextPolicy): Promise<void> {
    return this.#whenIdle(async () => {
      const resolved = await this.#policyFor(policy)
      await this.#compact(resolved, await this.#counterFor(resolved), () => undefined)
    })
  }

  #operation(input: EntryInput): Promise<void> {
    return this.#whenIdle(async () => {
      await this.#append([input])
    })
  }

  #whenIdle(operation: () => Promise<void>): Promise<void> {
    if (this.#request === undefined) return operation()
    return new Promise<void>((resolve, reject) => {
      this.#deferred.push(() => operation().then(resolve, reject))
      this.#update({ deferredOperations: this.#deferred.length })
    })
  }

  async #flushDeferred(): Promise<void> {
    while (this.#deferred.length > 0) {
      const operation = this.#deferred.shift() as () => Promise<void>
      this.#update({ deferredOperations: this.#deferred.length })
      await operation().catch(() => undefined)
    }
  }

  #run(options: SendOptions, start: (state: RequestState) => Promise<readonly SessionEvent[] | false>, pendingMessage?: string): AsyncIterable<SessionEvent> {
    const session = this
    return {
      async *[Symbol.asyncIterator]() {
        if (session.#request !== undefined) {
          yield { type: 'error', requestId: '', error: new SessionBusyError() }
          return
        }
        // Claimed before any await, so a second send in the same tick sees this one.
        const controller = new AbortController()
        const state: RequestState = { requestId: session.#createId(), policy: definePolicy(), controller, iteration: 0 }
        session.#request = state
        if (pendingMessage !== undefined) session.#update({ pendingMessage })
        const onAbort = (): void => controller.abort(options.signal?.reason)
        options.signal?.addEventListener('abort', onAbort, { once: true })
        if (options.signal?.aborted === true) onAbort()
        const wait = options.waitForThread === true ? {} : options.waitForThread === false ? undefined : options.waitForThread
        let lock = await acquireThreadLock(session.threadId, { signal: controller.signal })
        if (lock.status === 'busy' && wait !== undefined) {
          let waited = false
          try {
            yield { type: 'lock-wait', requestId: state.requestId, threadId: session.threadId }
            lock = await acquireThreadLock(session.threadId, { wait, signal: controller.signal })
            waited = true
          } finally {
            // The caller stopped iterating while this request waited: it never started, free the session.
            if (!waited) {
              options.signal?.removeEventListener('abort', onAbort)
              session.#request = undefined
              session.#update({ pendingMessage: undefined })
            }
          }
        }
        if (lock.status !== 'held') {
          options.signal?.removeEventListener('abort', onAbort)
          session.#request = undefined
          session.#update({ pendingMessage: undefined })
          yield { type: 'error', requestId: state.requestId, error: lock.status === 'busy' ? new ThreadBusyError(session.threadId) : lock.reason }
          return
        }
        const { release } = lock
        session.#update({ requestId: state.requestId, lastError: undefined })
        try {
          // Other tabs may have written just before the lock freed, and their live events may not
          // have reached this tab's mirror yet: catch up before acting on it.
          const record = await session.#options.threads.get(session.threadId)
          const mirror = session.#thread
          if (mirror !== undefined && (record?.lastSeq ?? -1) >= mirror.nextSeq) session.close()
          session.#pauseFollowing()
          Object.assign(state, { policy: await session.#policyFor(options.policy, record) })
          session.#update({ policy: state.policy })
          yield { type: 'request-start', requestId: state.requestId }
          const started = await start(state)
          if (started === false) {
            yield { type: 'done', requestId: state.requestId, text: '', stopReason: 'stop' }
            return
          }
          yield* started
          yield* session.#loop(state)
        } catch (error) {
          session.#update({ lastError: error })
          yield { type: 'error', requestId: state.requestId, error }
        } finally {
          options.signal?.removeEventListener('abort', onAbort)
          session.#request = undefined
          if (session.#thread !== undefined) session.#follow(session.#thread)
          session.#update({ status: 'idle', requestId: undefined, pendingMessage: undefined, streamingText: '', runningTools: [], retry: undefined })
          release()
          await session.#flushDeferred()
        }
      },
    }
  }

  /**
   * The model calls of one request, as a plain loop: no call path re-enters it, and every model call
   * goes through one `ModelCallBudget` (see `maxModelCalls`). A provider's "context too long" is
   * recovered from at most `MAX_CONTEXT_RECOVERIES` times per request: compact, then project within
   * the limit the server named; a recovery that changes nothing ends the request at once.
   */
  async *#loop(state: RequestState): AsyncGenerator<SessionEvent> {
    const counter = await this.#counterFor(state.policy)
    const maxIterations = this.#options.maxIterations ?? 8
    const budget = new ModelCallBudget(maxModelCalls(maxIterations))
    const tools = [...this.#tools.values()].map((tool) => tool.schema)
    let recoveries = 0
    let contextError: ContextTooLongError | undefined
    while (state.iteration < maxIterations) {
      const policy = policyWithin(state.policy, this.#snapshot.serverLimit?.model === this.#options.model.id ? this.#snapshot.serverLimit : undefined)
      const callId = this.#createId()
      const events: ThreadlensEvent[] = []
      const fitted = await this.#projectFitting({ ...state, policy }, counter, tools, (event) => events.push(event)).catch((error: unknown) => {
        // What must be sent does not fit the window the server named: its own error says it best.
        throw contextError !== undefined && BudgetOverflowError.isInstance(error) ? contextError : error
      })
      const { projection, memory, basisSeq } = fitted
      yield* events
      yield { type: 'projection-end', requestId: state.requestId, callId, iteration: state.iteration, projection }
      this.#update({
        status: 'awaiting-model',
        lastProjection: projection,
        streamingText: '',
        memory,
        calls: recentCalls(this.#snapshot.calls, {
          callId,
          policy,
          counter: counter.id,
          model: this.#options.model.id,
          tools,
          ...(memory === undefined ? {} : { memory }),
          basisSeq,
          startedAt: (this.#options.now ?? Date.now)(),
        }),
      })

      let text = ''
      const toolCalls: ToolCallEvent[] = []
      let usage: ModelUsage | undefined
      let stopReason: StopReason = 'stop'
      budget.take()
      const now = this.#options.now ?? Date.now
      const hashes = callHashes({ policy, tools, memory, projection })
      const attempt = { number: 1, startedAt: now(), firstTokenMs: undefined as number | undefined }
      const startedAt = attempt.startedAt
      const logAttempt = (status: CallAttempt['status'], error: unknown): Promise<void> =>
        this.#logAttempt({ state, callId, status, error, attempt: attempt.number, hashes, policy, counter, tools, memory, projection, basisSeq, usage, startedAt: attempt.startedAt, firstTokenMs: attempt.firstTokenMs, durationMs: now() - attempt.startedAt })
      const mirror = await this.thread()
      const toolCallIds = new ToolCallIds((toolCallId) => mirror.index.callSeqByToolCallId.has(toolCallId))
      try {
        const attachmentData = this.#options.attachments === undefined ? undefined : await this.#options.attachments.dataFor(projection)
        const stream = withNotices<ModelStreamEvent, RetryNotice>((onRetry) =>
          this.#options.model.stream({
            projection,
            tools,
            ...(attachmentData === undefined ? {} : { attachmentData }),
            signal: state.controller.signal,
            onRetry,
            ...(this.#options.maxOutputTokens === undefined ? {} : { maxOutputTokens: this.#options.maxOutputTokens }),
          }),
        )
        for await (const item of stream) {
          if (item.kind === 'notice') {
            const { error, attempt: next, maxAttempts, delayMs, retryAt } = item.value
            await logAttempt('retried', error)
            Object.assign(attempt, { number: next, startedAt: retryAt, firstTokenMs: undefined })
            const retry = { error, attempt: next, maxAttempts, delayMs, retryAt }
            this.#update({ status: 'retrying', retry })
            yield { type: 'retry-wait', requestId: state.requestId, callId, ...retry }
            continue
          }
          const event = item.value
          attempt.firstTokenMs ??= Math.max(0, now() - attempt.startedAt)
          if (this.#snapshot.status === 'retrying') this.#update({ status: 'awaiting-model', retry: undefined })
          if (event.type === 'text-delta') {
            text += event.text
            this.#update({ streamingText: text })
            yield { type: 'text-delta', callId, text: event.text }
          } else if (event.type === 'tool-call-start') yield { type: 'tool-call-start', callId, toolCallId: toolCallIds.start(event.toolCallId), name: event.name }
          else if (event.type === 'tool-call') {
            const call = { ...event, toolCallId: toolCallIds.complete(event.toolCallId) }
            toolCalls.push(call)
            yield { type: 'tool-call', callId, toolCallId: call.toolCallId, name: call.name, arguments: call.arguments }
          } else if (event.type === 'usage') {
            usage = event
            yield { type: 'usage', callId, inputTokens: event.inputTokens, outputTokens: event.outputTokens, cachedInputTokens: event.cachedInputTokens }
          } else if (event.type === 'finish') stopReason = event.stopReason
        }
      } catch (error) {
        this.#update({ status: 'awaiting-model', retry: undefined })
        await logAttempt(state.controller.signal.aborted ? 'aborted' : 'failed', error)
        if (ContextTooLongError.isInstance(error) && text === '' && toolCalls.length === 0 && recoveries < MAX_CONTEXT_RECOVERIES) {
          recoveries += 1
          contextError = error
          const recovered: SessionEvent[] = []
          if (await this.#recoverFromContextTooLong(error, state, policy, counter, projection, recoveries, (event) => recovered.push(event))) {
            yield* recovered
            continue
          }
          yield* recovered
        }
        const timing: CallTiming = { startedAt, firstTokenMs: attempt.firstTokenMs, durationMs: now() - startedAt, attempts: attempt.number }
        if (text !== '') await this.#appendReply(state, callId, text, [], { policy, counter, tools, memory, projection, basisSeq, usage, stopReason: 'error', interrupted: true, hashes, timing })
        throw error
      }

      const aborted = stopReason === 'abort' || state.controller.signal.aborted
      const calls = aborted ? [] : toolCalls
      const timing: CallTiming = { startedAt, firstTokenMs: attempt.firstTokenMs, durationMs: now() - startedAt, attempts: attempt.number }
      await this.#appendReply(state, callId, text, calls, { policy, counter, tools, memory, projection, basisSeq, usage, stopReason, interrupted: aborted, hashes, timing })
      if (usage !== undefined && !aborted) {
        const calibration = await this.#calibrate(counter, projection, usage)
        if (calibration !== undefined) yield calibration
      }
      if (aborted) {
        yield { type: 'error', requestId: state.requestId, error: state.controller.signal.reason ?? new DOMException('The request was aborted.', 'AbortError') }
        return
      }
      if (calls.length === 0) {
        yield { type: 'done', requestId: state.requestId, text, stopReason }
        return
      }
      this.#update({ status: 'awaiting-tools', runningTools: calls.map((call) => ({ toolCallId: call.toolCallId, name: call.name })) })
      const results: SessionEvent[] = []
      await this.#runTools(calls, state, callId, (event) => results.push(event))
      yield* results
      if (state.controller.signal.aborted) {
        yield { type: 'error', requestId: state.requestId, error: state.controller.signal.reason }
        return
      }
      this.#update({ runningTools: [] })
      state.iteration++
    }
    yield { type: 'max-iterations', requestId: state.requestId, iterations: state.iteration }
  }

  /**
   * One recovery from "context too long": the first compacts (and adopts a limit the error named),
   * later ones only adopt a newly named, smaller limit. `false` when nothing changed, so sending
   * again would only fail the same way.
   */
  async #recoverFromContextTooLong(
    error: ContextTooLongError,
    state: RequestState,
    policy: ContextPolicy,
    counter: TokenCounter,
    projection: ProjectionResult,
    recovery: number,
    onEvent: (event: SessionEvent) => void,
  ): Promise<boolean> {
    let changed = false
    const limit = serverLimitOf(error, this.#options.model.id, policy, projection.meta.tokens.total)
    if (limit !== undefined) {
      this.#update({ serverLimit: limit })
      onEvent({ type: 'server-limit-learn', requestId: state.requestId, ...limit })
      changed = true
    }
    if (recovery === 1) {
      const within = policyWithin(state.policy, this.#snapshot.serverLimit)
      if (await this.#compact(within, counter, onEvent)) changed = true
    }
    return changed
  }

  /** Projects; compacts once when the policy calls for it; a typed error if it still cannot fit. */
  async #projectFitting(
    state: RequestState,
    counter: TokenCounter,
    tools: readonly ToolSchema[],
    onEvent: (event: ThreadlensEvent) => void,
  ): Promise<{ projection: ProjectionResult; memory: string | undefined; basisSeq: number }> {
    const source = (await this.#options.memory?.()) ?? undefined
    const fresh = typeof source === 'object' ? renderMemory(source, { spaces: state.policy.memorySpaces, maxTokens: state.policy.memoryMaxTokens, counter }).text : (source ?? '')
    // Memory moves in step with the cache window (policy.cache.memoryHoldTurns): the held text is sent
    // again until the window moves, the change grows large or the turns run out. The call record keeps
    // the text that was sent, so a replay needs no memory store.
    const attempt = async (): Promise<{ projection: ProjectionResult; basisSeq: number; memory: string | undefined }> => {
      const thread = await this.thread()
      const basisSeq = thread.nextSeq
      const run = (text: string): ProjectionResult => project({ thread, policy: state.policy, counter, tools, ...(text === '' ? {} : { memory: text }) })
      const held = this.#heldMemory
      const choice = chooseMemoryText({ fresh, held, thread, policy: state.policy, counter })
      let projection = run(choice.text)
      let text = choice.text
      if (!choice.held || memoryWindowKey(projection.meta) !== held?.windowKey) {
        if (choice.held) projection = run((text = fresh))
        this.#heldMemory = { text, turn: choice.turn, windowKey: memoryWindowKey(projection.meta) }
      }
      return { projection, basisSeq, memory: text === '' ? undefined : text }
    }
    let result = await attempt()
    if (decideCompaction(result.projection, state.policy).action === 'compact') {
      const compacted = await this.#compact(state.policy, counter, onEvent)
      if (compacted) result = await attempt()
    }
    assertFits(result.projection)
    return result
  }

  async #compact(policy: ContextPolicy, counter: TokenCounter, onEvent: (event: ThreadlensEvent) => void): Promise<boolean> {
    const thread = await this.thread()
    const result = await compact({ thread, policy, counter, summarizer: this.#options.summarizer ?? extractiveSummarizer(), onEvent })
    if (result.entries.length > 0) await this.#append(result.entries)
    return result.status === 'summarized'
  }

  /** The record of what one model call sent and what came back: written with the reply, or to the call log. */
  #recordOf(sent: SentCall & { usage: ModelUsage | undefined }, stopReason: string, timing: CallTiming): CallRecord {
    return callRecord({
      model: this.#options.model.id,
      provider: this.#options.model.provider,
      counter: sent.counter,
      policy: sent.policy,
      tools: sent.tools,
      memory: sent.memory,
      projection: sent.projection,
      basisSeq: sent.basisSeq,
      stored: this.#stored,
      stopReason,
      usage: sent.usage,
      hashes: sent.hashes,
      timing,
    })
  }

  /** One model call's reply, written at once: its assistant message (with the call record) and its tool calls. */
  async #appendReply(
    state: RequestState,
    callId: string,
    text: string,
    calls: readonly ToolCallEvent[],
    call: SentCall & { usage: ModelUsage | undefined; stopReason: string; interrupted: boolean; timing: CallTiming },
  ): Promise<void> {
    const refs = { requestId: state.requestId, callId, iteration: state.iteration }
    const record = this.#recordOf(call, call.stopReason, call.timing)
    await this.#append([
      { kind: 'message', payload: { role: 'assistant', content: text }, refs, meta: { call: record, ...(call.interrupted ? { interrupted: true } : {}) } },
      ...calls.map((toolCall): EntryInput => ({ kind: 'tool_call', payload: { name: toolCall.name, arguments: toolCall.arguments }, refs: { ...refs, toolCallId: toolCall.toolCallId } })),
    ])
  }

  /**
   * Keeps an attempt that did not end in a reply on the thread (failed, retried, aborted) in the call
   * log, never in the thread. Its record carries what the thread does not hold, so it replays alone.
   * A log that fails to write must not fail the call: it is reported and the call goes on.
   */
  async #logAttempt(
    attempt: SentCall & {
      state: RequestState
      callId: string
      status: CallAttempt['status']
      error: unknown
      attempt: number
      usage: ModelUsage | undefined
      startedAt: number
      firstTokenMs: number | undefined
      durationMs: number
    },
  ): Promise<void> {
    const log = this.#options.callLog
    if (log === undefined) return
    const record = this.#recordOf(attempt, attempt.status === 'aborted' ? 'abort' : 'error', {
      startedAt: attempt.startedAt,
      firstTokenMs: attempt.firstTokenMs,
      durationMs: Math.max(0, attempt.durationMs),
      attempts: attempt.attempt,
    })
    const entry: CallAttempt = {
      id: `${attempt.callId}#${attempt.attempt}`,
      threadId: this.threadId,
      callId: attempt.callId,
      requestId: attempt.state.requestId,
      attempt: attempt.attempt,
      status: attempt.status,
      record,
      ...(attempt.error === undefined ? {} : { error: attemptErrorOf(attempt.error) }),
    }
    try {
      await log.recordAttempt(entry)
    } catch (error) {
      console.warn('[threadlens] a failed model call could not be written to the call log; the session goes on:', error)
    }
  }

  /** The model's calibration after this call's counts were added (by the store, with the reply). */
  #calibrate(counter: TokenCounter, projection: ProjectionResult, usage: ModelUsage): Promise<SessionEvent | undefined> {
    return calibrationEvent(this.#options.callLog, this.#options.model.id, counter, projection, usage)
  }

  /** Runs tool calls in parallel; each result is written as soon as it is ready. */
  async #runTools(calls: readonly ToolCallEvent[], state: RequestState, callId: string, onEvent: (event: SessionEvent) => void): Promise<void> {
    const thread = await this.thread()
    await Promise.all(
      calls.map(async (call) => {
        // Never twice for one call: not if this session ran it, not if any tab recorded its result.
        if (this.#executed.has(call.toolCallId) || thread.index.resultSeqByToolCallId.has(call.toolCallId)) return
        this.#executed.add(call.toolCallId)
        const refs = { requestId: state.requestId, callId, iteration: state.iteration }
        const outcome = await executeTool(this.#tools, call, { signal: state.controller.signal, threadId: this.threadId })
        const input =
          'error' in outcome
            ? toolResultInput({ name: call.name, toolCallId: call.toolCallId, error: outcome.error, policy: state.policy, refs, onEvent })
            : toolResultInput({ name: call.name, toolCallId: call.toolCallId, output: outcome.output, policy: state.policy, refs, onEvent })
        const entry = outcome.interrupted ? { ...input, meta: { ...input.meta, interrupted: true } } : input
        await this.#append([entry])
        const payload = entry.payload
        onEvent({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          name: call.name,
          output: payload.error ?? (typeof payload.result === 'string' ? payload.result : JSON.stringify(payload.result)),
          isError: payload.error !== undefined,
        })
      }),
    )
  }

}

export function createSession(options: SessionOptions): Session {
  return new Session(options)
}

/** The user message of a send: plain text, or the text first and then the given parts. */
function userPayload(text: string, parts: readonly ContentPart[] | undefined): MessagePayload {
  if (parts === undefined || parts.length === 0) return { role: 'user', content: text }
  const all: ContentPart[] = text === '' ? [...parts] : [{ type: 'text', text }, ...parts]
  return { role: 'user', content: partsText(all), parts: all }
}
