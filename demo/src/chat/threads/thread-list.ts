import type { ThreadRecord, ThreadStore } from '@threadlens/store'
import { useEffect, useSyncExternalStore } from 'react'
import { THREAD_LIST_CHANNEL } from '../chat-config'

export interface ThreadListSnapshot {
  readonly status: 'loading' | 'ready' | 'error'
  readonly records: readonly ThreadRecord[]
  readonly error: unknown
}

/**
 * The thread list, live across tabs. The store has no list events, so every tab that changes the
 * list says so on a BroadcastChannel, and the others read the list again.
 */
export class ThreadList {
  readonly #threads: ThreadStore
  readonly #listeners = new Set<() => void>()
  readonly #channel: BroadcastChannel | undefined
  #snapshot: ThreadListSnapshot = { status: 'loading', records: [], error: undefined }
  #reading = 0

  constructor(threads: ThreadStore) {
    this.#threads = threads
    this.#channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(THREAD_LIST_CHANNEL)
    this.#channel?.addEventListener('message', () => void this.refresh())
    void this.refresh()
  }

  getSnapshot = (): ThreadListSnapshot => this.#snapshot

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Reads the list again; of overlapping reads, only the newest is kept. */
  async refresh(): Promise<void> {
    const reading = ++this.#reading
    try {
      const records = await this.#threads.list()
      if (reading === this.#reading) this.#set({ status: 'ready', records, error: undefined })
    } catch (error) {
      if (reading === this.#reading) this.#set({ ...this.#snapshot, status: 'error', error })
    }
  }

  /** After this tab changed the list: read it again and tell the other tabs. */
  async announce(): Promise<void> {
    this.#channel?.postMessage('changed')
    await this.refresh()
  }

  #set(snapshot: ThreadListSnapshot): void {
    this.#snapshot = snapshot
    for (const listener of [...this.#listeners]) listener()
  }
}

const lists = new WeakMap<ThreadStore, ThreadList>()

export function threadListOf(threads: ThreadStore): ThreadList {
  let list = lists.get(threads)
  if (list === undefined) lists.set(threads, (list = new ThreadList(threads)))
  return list
}

/** The live thread list; `version` (e.g. the active thread's) re-reads it when it changes. */
export function useThreadList(threads: ThreadStore, version: number): ThreadListSnapshot {
  const list = threadListOf(threads)
  useEffect(() => {
    if (version > 0) void list.refresh()
  }, [list, version])
  return useSyncExternalStore(list.subscribe, list.getSnapshot, list.getSnapshot)
}
