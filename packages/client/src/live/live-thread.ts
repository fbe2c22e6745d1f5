import type { Entry, Thread } from '@threadlens/core'
import { extendThread } from '@threadlens/core/internal'
import type { ThreadRecord, ThreadStore, ThreadStoreEvent } from '@threadlens/store'
import { RefcountedStore } from './refcounted-store'

/**
 * One thread as a UI sees it. A new `Thread` object (and `version`) on every committed change,
 * the same object otherwise: compare by reference.
 */
export interface ThreadSnapshot {
  readonly threadId: string
  /** `loading` until the first load; `deleted` after the thread was deleted; `error` when the store failed. */
  readonly status: 'loading' | 'ready' | 'deleted' | 'error'
  /** The thread as of the last commit seen (kept through an error). */
  readonly thread: Thread | undefined
  /** The thread's `nextSeq`, or -1 before the first load. */
  readonly version: number
  readonly error: unknown
  /**
   * The thread's stored record (title, tags, …), live across tabs: follows updates and renames,
   * not appends. `undefined` until it is read, and after the thread is deleted.
   */
  readonly record: ThreadRecord | undefined
}

/** Follows one stored thread: loads it, then applies committed appends from every tab (and loads it again after a rebase). */
export class LiveThread extends RefcountedStore<ThreadSnapshot> {
  readonly #threads: ThreadStore
  readonly threadId: string
  #stopListening: (() => void) | undefined
  #generation = 0
  /** A rebase was heard and the thread not loaded again yet: a restart reloads instead of catching up. */
  #stale = false

  constructor(threads: ThreadStore, threadId: string) {
    super({ threadId, status: 'loading', thread: undefined, version: -1, error: undefined, record: undefined })
    this.#threads = threads
    this.threadId = threadId
  }

  protected start(): void {
    const generation = ++this.#generation
    const current = this.store.getState().thread
    // Restarted after a pause: catch up from the last seq seen instead of reloading.
    if (current !== undefined && !this.#stale) {
      this.#listen(current.nextSeq - 1, generation)
      return
    }
    this.#load(generation)
  }

  /** Loads the whole thread, then listens from its last seq; the snapshot keeps its thread meanwhile. */
  #load(generation: number): void {
    this.#threads.load(this.threadId).then(
      (thread) => {
        if (generation !== this.#generation) return
        this.#stale = false
        this.store.setState({ status: 'ready', thread, version: thread.nextSeq, error: undefined })
        this.#listen(thread.nextSeq - 1, generation)
      },
      (error: unknown) => {
        if (generation === this.#generation) this.store.setState({ status: 'error', error })
      },
    )
  }

  protected stop(): void {
    this.#generation++
    this.#stopListening?.()
    this.#stopListening = undefined
  }

  #listen(afterSeq: number, generation: number): void {
    // The record comes on the same subscription: no second live query re-run after every append.
    this.#stopListening = this.#threads.subscribe(this.threadId, (event) => this.#onEvent(event, generation), { afterSeq, records: true })
  }

  #onEvent(event: ThreadStoreEvent, generation: number): void {
    if (generation !== this.#generation) return
    if (event.type === 'thread-delete') {
      this.store.setState({ status: 'deleted', thread: undefined, version: -1, error: undefined, record: undefined })
      return
    }
    if (event.type === 'record-update') {
      this.store.setState({ record: event.record })
      return
    }
    if (event.type === 'storage-fail') {
      this.store.setState({ status: 'error', error: event.error })
      return
    }
    if (event.type === 'thread-rebase') {
      // Stored entries moved (a sync placed entries before this tab's): read the thread again, keeping the
      // old one on screen until the new one is loaded.
      this.stop()
      this.#stale = true
      this.#load(++this.#generation)
      return
    }
    const thread = this.store.getState().thread
    if (thread === undefined) return
    const fresh = event.entries.filter((entry) => entry.seq >= thread.nextSeq)
    if (fresh.length === 0) return
    if ((fresh[0] as Entry).seq !== thread.nextSeq) {
      // A gap means events were missed: reload rather than show a thread with holes.
      this.stop()
      this.store.setState({ thread: undefined })
      this.start()
      return
    }
    // The new version takes over the previous one's index and indexes only `fresh`.
    const next = extendThread(thread, fresh)
    this.store.setState({ status: 'ready', thread: next, version: next.nextSeq, error: undefined })
  }
}
