import type { ThreadRecord, ThreadStore } from '@threadlens/store'
import { useSyncExternalStore } from 'react'
import { DEFAULT_TITLE } from '../chat-config'

export interface ThreadListSnapshot {
  readonly status: 'loading' | 'ready' | 'error'
  readonly records: readonly ThreadRecord[]
  readonly error: unknown
}

/** The thread list, live across tabs: the store's `subscribeList`, held for React. */
export class ThreadList {
  readonly #listeners = new Set<() => void>()
  #snapshot: ThreadListSnapshot = { status: 'loading', records: [], error: undefined }

  constructor(threads: ThreadStore) {
    threads.subscribeList((event) => {
      this.#set(
        event.type === 'list-update'
          ? { status: 'ready', records: event.threads, error: undefined }
          : { ...this.#snapshot, status: 'error', error: event.error },
      )
    })
  }

  getSnapshot = (): ThreadListSnapshot => this.#snapshot

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Resolves once the list holds `threadId` (the store's list event follows a commit by a moment),
   * or after `timeoutMs`: opening a thread the list does not know yet would fall back to another.
   */
  async includes(threadId: string, timeoutMs = 5_000): Promise<void> {
    const has = () => this.#snapshot.records.some((record) => record.id === threadId)
    if (has()) return
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        stop()
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      const stop = this.subscribe(() => {
        if (has()) done()
      })
    })
  }

  #set(snapshot: ThreadListSnapshot): void {
    this.#snapshot = snapshot
    for (const listener of [...this.#listeners]) listener()
  }
}

const lists = new WeakMap<ThreadStore, ThreadList>()

/** One live list per store for the page's lifetime (the store's subscription is never stopped). */
export function threadListOf(threads: ThreadStore): ThreadList {
  let list = lists.get(threads)
  if (list === undefined) lists.set(threads, (list = new ThreadList(threads)))
  return list
}

/** The live thread list. */
export function useThreadList(threads: ThreadStore): ThreadListSnapshot {
  const list = threadListOf(threads)
  return useSyncExternalStore(list.subscribe, list.getSnapshot, list.getSnapshot)
}

/** The title shown for a thread. */
export function titleOf(record: Pick<ThreadRecord, 'title'> | undefined): string {
  if (record === undefined || record.title.trim() === '') return DEFAULT_TITLE
  return record.title
}
