import type { CallLogStore, MemoryStore, ThreadStore } from '@threadlens/store'
import { LiveMemory } from './live-memory'
import { LiveThread } from './live-thread'

export interface ThreadlensClientOptions {
  /** The thread store (`createThreadStore(db)`, or the in-memory fallback). Required. */
  readonly threads: ThreadStore
  /** The memory store, for `useMemory`. Default: none (`useMemory` then reports an error). */
  readonly memory?: MemoryStore
  /** The call log (failed attempts, token calibrations), for `useCallAttempts` and `useCalibrations`. Default: none (they report `available: false`). */
  readonly calls?: CallLogStore
}

/**
 * Holds one live view per thread and per memory id, shared by every hook that reads it (as
 * TanStack Query's QueryClient holds queries). A view loads on its first subscriber, follows the
 * store's commits (this tab and others), and stops listening when its last subscriber leaves.
 */
export class ThreadlensClient {
  readonly threads: ThreadStore
  readonly memory: MemoryStore | undefined
  readonly calls: CallLogStore | undefined
  readonly #liveThreads = new Map<string, LiveThread>()
  readonly #liveMemories = new Map<string, LiveMemory>()

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
}

/** A client over your stores; put it in `<ThreadlensProvider client={client}>`. */
export function createThreadlensClient(options: ThreadlensClientOptions): ThreadlensClient {
  return new ThreadlensClient(options)
}
