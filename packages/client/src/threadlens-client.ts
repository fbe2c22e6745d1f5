import type { CallAttempt, TokenCalibration } from '@threadlens/core/calls'
import type { CallLogStore, MemoryStore, ThreadStore } from '@threadlens/store'
import { LiveCallLog } from './live/live-call-log'
import { LiveMemory } from './live/live-memory'
import { LiveThread } from './live/live-thread'

export interface ThreadlensClientOptions {
  /** The thread store (`createThreadStore(db)`, or the in-memory fallback). Required. */
  readonly threads: ThreadStore
  /** The memory store, for `memoryOf` (`useMemory`). Default: none (a memory view then reports an error). */
  readonly memory?: MemoryStore
  /** The call log (failed attempts, token calibrations), for `callAttempts` and `calibrations`. Default: none (they report `available: false`). */
  readonly calls?: CallLogStore
}

/**
 * Holds one live view per thread, per memory id and per call-log view, shared by everything that
 * reads it (as TanStack Query's QueryClient holds queries). A view loads on its first subscriber,
 * follows the store's commits (this tab and others), and stops listening when its last subscriber
 * leaves. Each view is `subscribe(listener)` + `getState()`: what a framework binding needs.
 */
export class ThreadlensClient {
  readonly threads: ThreadStore
  readonly memory: MemoryStore | undefined
  readonly calls: CallLogStore | undefined
  readonly #liveThreads = new Map<string, LiveThread>()
  readonly #liveMemories = new Map<string, LiveMemory>()
  readonly #liveAttempts = new Map<string, LiveCallLog<readonly CallAttempt[]>>()
  #liveCalibrations: LiveCallLog<readonly TokenCalibration[]> | undefined

  constructor(options: ThreadlensClientOptions) {
    this.threads = options.threads
    this.memory = options.memory
    this.calls = options.calls
  }

  /** The live view of one thread (created on first use, then shared). */
  thread(threadId: string): LiveThread {
    let live = this.#liveThreads.get(threadId)
    if (live === undefined) {
      live = new LiveThread(this.threads, threadId)
      this.#liveThreads.set(threadId, live)
    }
    return live
  }

  /** The live view of one memory (one agent's spaces). */
  memoryOf(memoryId: string): LiveMemory {
    let live = this.#liveMemories.get(memoryId)
    if (live === undefined) {
      live = new LiveMemory(this.memory, memoryId)
      this.#liveMemories.set(memoryId, live)
    }
    return live
  }

  /**
   * A thread's failed, retried and aborted model-call attempts from the call log, live across tabs.
   * Answered calls are on the thread itself (`threadCalls`); core's `callTrace` puts both together.
   */
  callAttempts(threadId: string): LiveCallLog<readonly CallAttempt[]> {
    let live = this.#liveAttempts.get(threadId)
    if (live === undefined) {
      live = new LiveCallLog<readonly CallAttempt[]>(this.calls, [], (log, onEvent) => log.subscribeAttempts(threadId, onEvent), (event) =>
        event.type === 'attempts-update' ? event.attempts : undefined,
      )
      this.#liveAttempts.set(threadId, live)
    }
    return live
  }

  /** Every model's token calibration from the call log, newest first, live across tabs. */
  calibrations(): LiveCallLog<readonly TokenCalibration[]> {
    this.#liveCalibrations ??= new LiveCallLog<readonly TokenCalibration[]>(this.calls, [], (log, onEvent) => log.subscribeCalibrations(onEvent), (event) =>
      event.type === 'calibrations-update' ? event.calibrations : undefined,
    )
    return this.#liveCalibrations
  }
}

/** A client over your stores; in React, put it in `<ThreadlensProvider client={client}>`. */
export function createThreadlensClient(options: ThreadlensClientOptions): ThreadlensClient {
  return new ThreadlensClient(options)
}
