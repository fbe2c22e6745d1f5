import type { CallAttempt, TokenCalibration } from '@threadlens/core/calls'
import type { CallLogStore, MemoryStore, ThreadStore } from '@threadlens/store'
import { LiveCallLog } from './live/live-call-log'
import { LiveMemory } from './live/live-memory'
import { LiveThread } from './live/live-thread'
import type { RefcountedStore } from './live/refcounted-store'

export interface ThreadlensClientOptions {
  /** The thread store (`createThreadStore(db)`, or the in-memory fallback). Required. */
  readonly threads: ThreadStore
  /** The memory store, for `memoryOf` (`useMemory`). Default: none (a memory view then reports an error). */
  readonly memory?: MemoryStore
  /** The call log (failed attempts, token calibrations), for `callAttempts` and `calibrations`. Default: none (they report `available: false`). */
  readonly calls?: CallLogStore
  /**
   * How long a view no one subscribes to is kept before the client lets it go (ms), as TanStack
   * Query's `gcTime`: a view subscribed to again within it resumes from what it holds; after it, the
   * next `thread(id)` makes a new view that loads again. `Infinity` keeps every view. Default
   * 5 minutes. An app that browses many threads thus holds only the ones on screen and the recent ones.
   */
  readonly gcTime?: number
}

/** Default `gcTime`: five minutes, as TanStack Query's. */
const DEFAULT_GC_TIME_MS = 5 * 60_000
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Holds one live view per thread, per memory id and per call-log view, shared by everything that
 * reads it (as TanStack Query's QueryClient holds queries). A view loads on its first subscriber,
 * follows the store's commits (this tab and others), stops listening when its last subscriber
 * leaves, and is let go `gcTime` after that (or after it was made, if no one ever subscribed).
 * Each view is `subscribe(listener)` + `getSnapshot()`: what a framework binding needs.
 */
export class ThreadlensClient {
  readonly threads: ThreadStore
  readonly memory: MemoryStore | undefined
  readonly calls: CallLogStore | undefined
  readonly #liveThreads = new Map<string, LiveThread>()
  readonly #liveMemories = new Map<string, LiveMemory>()
  readonly #liveAttempts = new Map<string, LiveCallLog<readonly CallAttempt[]>>()
  #liveCalibrations: LiveCallLog<readonly TokenCalibration[]> | undefined
  readonly #gcTime: number

  constructor(options: ThreadlensClientOptions) {
    this.threads = options.threads
    this.memory = options.memory
    this.calls = options.calls
    const gcTime = options.gcTime ?? DEFAULT_GC_TIME_MS
    if (!(gcTime >= 0))
      throw new RangeError(`createThreadlensClient: gcTime must be a number of milliseconds, 0 or more (or Infinity); got ${String(gcTime)}`)
    this.#gcTime = gcTime
  }

  /** Caches `view` under `key`, dropping it `gcTime` after it is made or last left, unless subscribed again. */
  #keep<TView extends RefcountedStore<unknown>>(views: Map<string, TView>, key: string, view: TView): TView {
    views.set(key, view)
    // setTimeout cannot wait longer than 2^31 - 1 ms (about 25 days): anything longer keeps the view.
    if (this.#gcTime > MAX_TIMER_MS) return view
    let timer: ReturnType<typeof setTimeout> | undefined
    const schedule = (idle: boolean): void => {
      clearTimeout(timer)
      timer = undefined
      if (!idle) return
      timer = setTimeout(() => views.get(key) === view && view.subscriberCount === 0 && views.delete(key), this.#gcTime)
      // In Node (tests, scripts) a pending eviction must not keep the process alive.
      ;(timer as { unref?: () => void }).unref?.()
    }
    view.onIdleChange(schedule)
    schedule(true)
    return view
  }

  /** The live view of one thread (created on first use, then shared). */
  thread(threadId: string): LiveThread {
    const live = this.#liveThreads.get(threadId)
    return live ?? this.#keep(this.#liveThreads, threadId, new LiveThread(this.threads, threadId))
  }

  /** The live view of one memory (one agent's spaces). */
  memoryOf(memoryId: string): LiveMemory {
    return this.#liveMemories.get(memoryId) ?? this.#keep(this.#liveMemories, memoryId, new LiveMemory(this.memory, memoryId))
  }

  /**
   * A thread's failed, retried and aborted model-call attempts from the call log, live across tabs.
   * Answered calls are on the thread itself (`threadCalls`); core's `callTrace` puts both together.
   */
  callAttempts(threadId: string): LiveCallLog<readonly CallAttempt[]> {
    const live = this.#liveAttempts.get(threadId)
    if (live !== undefined) return live
    const created = new LiveCallLog<readonly CallAttempt[]>(
      this.calls,
      [],
      (log, onEvent) => log.subscribeAttempts(threadId, onEvent),
      (event) => (event.type === 'attempts-update' ? event.attempts : undefined),
    )
    return this.#keep(this.#liveAttempts, threadId, created)
  }

  /** Every model's token calibration from the call log, newest first, live across tabs. */
  calibrations(): LiveCallLog<readonly TokenCalibration[]> {
    this.#liveCalibrations ??= new LiveCallLog<readonly TokenCalibration[]>(
      this.calls,
      [],
      (log, onEvent) => log.subscribeCalibrations(onEvent),
      (event) => (event.type === 'calibrations-update' ? event.calibrations : undefined),
    )
    return this.#liveCalibrations
  }
}

/** A client over your stores; in React, put it in `<ThreadlensProvider client={client}>`. */
export function createThreadlensClient(options: ThreadlensClientOptions): ThreadlensClient {
  return new ThreadlensClient(options)
}
