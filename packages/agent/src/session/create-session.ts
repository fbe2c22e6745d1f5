import {
  createTokenCounter,
  definePolicy,
  type ContextPolicy,
  type EntryInput,
  type SessionSnapshot,
  type SessionSource,
  type SessionStatus,
  type Thread,
  type TokenCounter,
} from '@threadlens/core'
import type { MessagePayload } from '@threadlens/core/internal'
import { counterReady, idleSessionSnapshot, Subscribable } from '@threadlens/core/internal'
import { partsText, type ContentPart } from '@threadlens/core/parts'
import type { ThreadRecord } from '@threadlens/store'
import type { Tool } from '../tools/define-tool'
import { ContextFitting } from './context-fitting'
import { callPolicy } from './context-recovery'
import { SessionBusyError, ThreadBusyError } from './errors'
import { runRequest, type RequestContext, type RequestStart } from './run-request'
import type { SessionEvent } from './session-events'
import type { SendOptions, SessionOptions } from './session-options'
import { lockForRequest, type ThreadLockResult } from './thread-lock'
import { ThreadMirror } from './thread-mirror'
import { threadPolicyOf } from './thread-policy'

/**
 * The chat session loop. The thread is written first and context is projected fresh for every
 * model call; nothing about the conversation lives only in memory. This class holds what outlives
 * a request (the thread's mirror, the memory hold, the snapshot) and each request's lifecycle:
 * claim the session → take the thread's lock → `runRequest` (run-request.ts: the request itself,
 * top-down) → free the lock and the session.
 */
export class Session extends Subscribable<(snapshot: SessionSnapshot) => void> implements SessionSource {
  readonly threadId: string
  readonly #options: SessionOptions
  readonly #mirror: ThreadMirror
  readonly #fitting: ContextFitting
  readonly #tools: ReadonlyMap<string, Tool<unknown>>
  readonly #toolSchemas: SessionSnapshot['tools']
  /** The tool calls this session has run: none runs twice, in any request. */
  readonly #ranToolCalls = new Set<string>()
  readonly #deferred: (() => Promise<void>)[] = []
  readonly #createId: () => string
  #counter: TokenCounter | undefined
  /** The request in progress, claimed before its first await so a second one in the same tick sees it. */
  #active: AbortController | undefined
  #snapshot: SessionSnapshot

  constructor(options: SessionOptions) {
    super()
    this.threadId = options.threadId
    this.#options = options
    this.#createId = options.createId ?? (() => globalThis.crypto.randomUUID())
    this.#tools = new Map((options.tools ?? []).map((tool): [string, Tool<unknown>] => [tool.name, tool]))
    this.#toolSchemas = [...this.#tools.values()].map((tool) => tool.schema)
    this.#mirror = new ThreadMirror(options.threads, options.threadId, () => this.#active === undefined)
    this.#fitting = new ContextFitting(this.#mirror, options)
    this.#snapshot = idleSessionSnapshot(options.threadId, {
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      tools: this.#toolSchemas,
    })
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
  thread(): Promise<Thread> {
    return this.#mirror.thread()
  }

  /** Stops listening to the store. The session can be used again; it reloads on next use. */
  close(): void {
    this.#mirror.close()
  }

  async #counterFor(policy: ContextPolicy): Promise<TokenCounter> {
    // A send is not a paint: it waits for a given counter's promise, so calls are counted exactly.
    if (this.#options.counter !== undefined) return counterReady(this.#options.counter)
    if (this.#counter?.id !== policy.tokenizer) this.#counter = await createTokenCounter(policy.tokenizer)
    return this.#counter
  }

  /** The policy a request projects with: its own, over the thread's (`metadata.policy`), over the session's, over the default. */
  async #policyFor(request: ContextPolicy | undefined, known?: ThreadRecord): Promise<ContextPolicy> {
    if (request !== undefined) return request
    const threadPolicy = threadPolicyOf(known ?? (await this.#options.threads.get(this.threadId)))
    if (threadPolicy !== undefined) return threadPolicy
    const calibrated = this.#options.calibratedPolicy
    if (calibrated !== undefined) {
      const given = this.#options.counter === undefined ? undefined : await counterReady(this.#options.counter)
      const counterId = given?.id ?? calibrated(undefined).tokenizer
      return calibrated(await this.#options.callLog?.calibration(this.#options.model.id, counterId))
    }
    return this.#options.policy ?? definePolicy()
  }

  /**
   * The memory text the next `send()` would carry (its first model call), decided now as that call
   * will decide it: the memory read and rendered under the policy, then held as
   * `policy.cache.memoryHoldTurns` says, the message the send appends counted as a turn. What an
   * app's "next call" meter and devtools should project with (`useProjection(threadId, policy,
   * { memory })`), so they show what will be sent. `undefined` when the call would carry none. Meant
   * for an idle session; the call renders the memory fresh instead if its own message moves the
   * cache window or a compaction runs first (the prompt after the memory is rewritten then anyway).
   */
  async nextCallMemory(options: { readonly policy?: ContextPolicy } = {}): Promise<string | undefined> {
    const policy = callPolicy(await this.#policyFor(options.policy), this.#snapshot.serverLimit, this.#options.model.id)
    const text = await this.#fitting.nextMemory(policy, await this.#counterFor(policy), this.#toolSchemas)
    return text === '' ? undefined : text
  }

  /** Aborts the request in progress: streaming and tools stop, and the thread records what happened. */
  abort(reason?: unknown): void {
    this.#active?.abort(reason ?? new DOMException('The request was aborted.', 'AbortError'))
  }

  /** Sends a user message and runs the loop until the model answers, streaming what happens. */
  send(text: string, options: SendOptions = {}): AsyncIterable<SessionEvent> {
    return this.#run(options, { kind: 'send', message: userPayload(text, options.parts) }, text)
  }

  /**
   * After a reload: answers tool calls left without a result — idempotent tools run again, others
   * are recorded as interrupted; no call is ever run twice — then lets the model go on.
   */
  resume(options: SendOptions = {}): AsyncIterable<SessionEvent> {
    return this.#run(options, { kind: 'resume' })
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
      await this.#fitting.compact(resolved, await this.#counterFor(resolved), () => undefined)
    })
  }

  #operation(input: EntryInput): Promise<void> {
    return this.#whenIdle(async () => {
      await this.#mirror.append([input])
    })
  }

  #whenIdle(operation: () => Promise<void>): Promise<void> {
    if (this.#active === undefined) return operation()
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

  /**
   * One request's lifecycle: claim the session, take the thread's lock (waiting if asked), open the
   * request (catch up with other tabs, settle its policy) and run it, then always free the session,
   * the lock and the deferred operations.
   */
  #run(options: SendOptions, start: RequestStart, pendingMessage?: string): AsyncIterable<SessionEvent> {
    // oxlint-disable-next-line typescript/no-this-alias -- the async generator below is a method of a literal: its own `this` is not the session
    const session = this
    return {
      async *[Symbol.asyncIterator]() {
        if (session.#active !== undefined) {
          yield { type: 'error', requestId: '', error: new SessionBusyError() }
          return
        }
        // Claimed before any await, so a second send in the same tick sees this one.
        const controller = new AbortController()
        const requestId = session.#createId()
        session.#active = controller
        if (pendingMessage !== undefined) session.#update({ pendingMessage })
        const onAbort = (): void => controller.abort(options.signal?.reason)
        options.signal?.addEventListener('abort', onAbort, { once: true })
        if (options.signal?.aborted === true) onAbort()
        const unclaim = (): void => {
          options.signal?.removeEventListener('abort', onAbort)
          session.#active = undefined
          session.#update({ pendingMessage: undefined })
        }
        let lock: ThreadLockResult | undefined
        try {
          lock = yield* lockForRequest(session.threadId, requestId, controller.signal, options.waitForThread)
        } finally {
          // The caller stopped iterating while this request waited: it never started, free the session.
          if (lock === undefined) unclaim()
        }
        if (lock.status !== 'held') {
          unclaim()
          yield { type: 'error', requestId, error: lock.status === 'busy' ? new ThreadBusyError(session.threadId) : lock.reason }
          return
        }
        session.#update({ requestId, lastError: undefined })
        try {
          yield* runRequest(await session.#open(requestId, controller.signal, options.policy), start)
        } catch (error) {
          session.#update({ lastError: error })
          yield { type: 'error', requestId, error }
        } finally {
          options.signal?.removeEventListener('abort', onAbort)
          session.#active = undefined
          session.#mirror.follow()
          session.#update({ status: 'idle', requestId: undefined, pendingMessage: undefined, streamingText: '', runningTools: [], retry: undefined })
          lock.release()
          await session.#flushDeferred()
        }
      },
    }
  }

  /**
   * A request once its lock is held: the mirror caught up with what other tabs wrote and driven by
   * this tab alone, and the policy settled; then its context, built once.
   */
  async #open(requestId: string, signal: AbortSignal, requested: ContextPolicy | undefined): Promise<RequestContext> {
    const record = await this.#options.threads.get(this.threadId)
    this.#mirror.catchUp(record)
    this.#mirror.pauseFollowing()
    const policy = await this.#policyFor(requested, record)
    this.#update({ policy })
    return {
      requestId,
      signal,
      policy,
      options: this.#options,
      mirror: this.#mirror,
      fitting: this.#fitting,
      tools: this.#tools,
      toolSchemas: this.#toolSchemas,
      ranToolCalls: this.#ranToolCalls,
      counter: () => this.#counterFor(policy),
      snapshot: () => this.#snapshot,
      update: (changes) => this.#update(changes),
      createId: this.#createId,
      now: () => (this.#options.now ?? Date.now)(),
    }
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
