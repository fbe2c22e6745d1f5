import type { CounterSource } from '@threadlens/core/models'
import type { CallLog, TokenCalibration } from '@threadlens/core/calls'
import type { ContextPolicy, Memory, ProjectionResult, Summarizer } from '@threadlens/core'
import type { ContentPart } from '@threadlens/core/parts'
import type { RecallSearcher } from '@threadlens/core/recall'
import type { ThreadStore } from '@threadlens/store'
import type { ModelClient } from '../model/model-client'
import type { Tool } from '../tools/define-tool'
import type { WaitForThreadOptions } from './thread-lock'

export interface SessionOptions {
  readonly threads: ThreadStore
  readonly threadId: string
  readonly model: ModelClient
  /** Default: none. */
  readonly tools?: readonly Tool<unknown>[]
  /**
   * The session's policy; a thread's own (its record's `metadata.policy`: policy options, checked
   * as `definePolicy` checks them) and a request's override it. A `metadata.policy` that is not a
   * valid policy ends each request with `InvalidPolicyError` before anything is written. Default:
   * `definePolicy()`.
   */
  readonly policy?: ContextPolicy
  /** A counter or its promise (`createTokenCounter()`, not awaited: a send waits for it). Default: `createTokenCounter(policy.tokenizer)`. */
  readonly counter?: CounterSource
  /** Used when a projection needs a summary. Default: `extractiveSummarizer()`. */
  readonly summarizer?: Summarizer
  /**
   * The memory segment for each call, read fresh every call: text, or a `Memory` whose
   * `policy.memorySpaces` are rendered (e.g. `() => memoryStore.get(agentId)`). Default: none.
   */
  readonly memory?: () => Promise<string | Memory | undefined> | string | Memory | undefined
  /**
   * Where `policy.recall` finds the older entries relevant to the newest user message:
   * `createRecallIndex()` from `@threadlens/core/recall`. A session has one thread, so one index;
   * it is passed to every projection the session makes. Default: none, and a policy with recall
   * skips it (`meta.recall.skipped: 'no-index'`).
   */
  readonly recall?: RecallSearcher
  /**
   * Model calls per request before the loop stops with `max-iterations`. Default 8. With the calls
   * sent again after a "context too long" (at most 2), one request makes at most `maxIterations + 2`
   * model calls, each at most `maxRetries + 1` HTTP requests under the client's retry policy.
   */
  readonly maxIterations?: number
  /** Default: the model client's own setting. */
  readonly maxOutputTokens?: number
  /** Ids for requests and calls. Default: `crypto.randomUUID`. */
  readonly createId?: () => string
  /**
   * Where failed, retried and aborted attempts and each model's token calibration are kept (the
   * store's `createCallLog`). Answered calls are recorded on the thread either way. Default: none,
   * so only answered calls are on record and nothing is calibrated.
   */
  readonly callLog?: CallLog
  /**
   * Builds the session's policy from the model's calibration (read fresh for each request, so every
   * tab's calls count), e.g. `(calibration) => policyForModel(id, {}, { calibration })`. Used where
   * `policy` would be; a thread's or a request's policy still wins. Default: none, `policy` as given.
   */
  readonly calibratedPolicy?: (calibration: TokenCalibration | undefined) => ContextPolicy
  /** Clock for call records (start, latency). Default: `Date.now`. */
  readonly now?: () => number
  /**
   * Where the bytes of images and files sent as store-held attachments are (the store's
   * `attachments`): read for each request the projection holds them in. Default: none, and a
   * request holding one fails with `AttachmentUnavailableError`.
   */
  readonly attachments?: { dataFor(result: ProjectionResult): Promise<(id: string) => string | undefined> }
}

export interface SendOptions {
  /**
   * Images and files sent with the message (e.g. `imagePart(await stores.attachments.put(...))`),
   * after the text; the user message then holds the text and these as its parts. Default: none.
   */
  readonly parts?: readonly ContentPart[]
  /** This request's policy, over the thread's and the session's. */
  readonly policy?: ContextPolicy
  /** Aborts this request, like `session.abort()`. */
  readonly signal?: AbortSignal
  /**
   * When another tab is driving this thread: `true` or `{ timeoutMs }` waits for it (a `lock-wait`
   * event says so) and then runs; `signal` or `session.abort()` stop the wait. Default: `false`, fail
   * at once with `ThreadBusyError` (also what a timeout gives).
   */
  readonly waitForThread?: boolean | WaitForThreadOptions
}
