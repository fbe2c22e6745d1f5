import type { Entry, EntryInput, Thread } from '@threadlens/core'
import { StoredHashes } from '@threadlens/core/calls'
import { ingestEntries } from '@threadlens/core/internal'
import type { ThreadRecord, ThreadStore } from '@threadlens/store'

/**
 * The session's live copy of its thread: loaded on first use, kept in step with commits from every
 * tab, and fed the session's own writes directly. It also remembers the hashes of every stored
 * entry, so call records can name what the store already holds.
 */
export class ThreadMirror {
  readonly stored = new StoredHashes()
  readonly #threads: ThreadStore
  readonly #threadId: string
  /** Whether to listen to the store after a load: not while a request drives the thread. */
  readonly #followsOnLoad: () => boolean
  #thread: Thread | undefined
  #unsubscribe: (() => void) | undefined

  constructor(threads: ThreadStore, threadId: string, followsOnLoad: () => boolean) {
    this.#threads = threads
    this.#threadId = threadId
    this.#followsOnLoad = followsOnLoad
  }

  /** The mirror, loading it when there is none. */
  async thread(): Promise<Thread> {
    if (this.#thread !== undefined) return this.#thread
    const thread = await this.#threads.load(this.#threadId)
    this.stored.addFrom(thread.entries)
    this.#thread = thread
    if (this.#followsOnLoad()) this.follow()
    return thread
  }

  /** Keeps the mirror (if loaded) in step with commits from every tab, from its last seq on. */
  follow(): void {
    const thread = this.#thread
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    if (thread === undefined) return
    this.#unsubscribe = this.#threads.subscribe(
      this.#threadId,
      (event) => {
        // Stored entries moved (a sync placed others before them): drop the mirror, the next use reloads it.
        if (event.type === 'thread-rebase') {
          this.close()
          return
        }
        if (event.type !== 'entry-append') return
        this.stored.addFrom(event.entries)
        ingestEntries(thread, event.entries)
      },
      { afterSeq: thread.nextSeq - 1 },
    )
  }

  /**
   * While a request holds the thread's lock this tab is its only driver, and it ingests its own
   * writes directly: listening meanwhile would only re-read each of them. It listens again, from
   * the mirror's last seq, when the request ends.
   */
  pauseFollowing(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
  }

  /**
   * Other tabs may have written just before the lock freed, and their live events may not have
   * reached this tab yet: drops a mirror that is behind the stored record, to reload on next use.
   */
  catchUp(record: ThreadRecord | undefined): void {
    if (this.#thread !== undefined && (record?.lastSeq ?? -1) >= this.#thread.nextSeq) this.close()
  }

  /** Stops listening and forgets the mirror; the next use reloads it. */
  close(): void {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    this.#thread = undefined
  }

  /** Writes entries to the store and into the mirror. */
  async append(inputs: readonly EntryInput[]): Promise<readonly Entry[]> {
    const entries = await this.#threads.appendMany(this.#threadId, inputs)
    this.stored.addFrom(entries)
    const thread = await this.thread()
    if (thread.nextSeq < (entries[0]?.seq ?? 0)) {
      // Someone else wrote in between and the live events have not arrived yet: read it again.
      this.close()
      await this.thread()
    } else ingestEntries(thread, entries)
    return entries
  }
}
