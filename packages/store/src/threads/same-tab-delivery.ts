import type { Entry } from '@threadlens/core'
import type { ThreadStoreEvent, ThreadStoreListener } from './thread-store'

interface Subscriber {
  readonly listener: ThreadStoreListener
  /** Last seq this subscriber was given; `undefined` until known (no `afterSeq` and nothing delivered yet). */
  delivered: number | undefined
  stopped: boolean
}

export interface SameTabDelivery {
  /**
   * Wraps a backend subscription so that it also hears `committed` appends, each entry once, in
   * seq order. The backend gets `delivered`: the last seq this subscriber already has, so that it
   * need not read those entries again (`undefined` until known).
   */
  subscribe(
    threadId: string,
    listener: ThreadStoreListener,
    afterSeq: number | undefined,
    subscribeBackend: (listener: ThreadStoreListener, delivered: () => number | undefined) => () => void,
  ): () => void
  /** Entries this tab has just committed to `threadId`, in seq order. */
  committed(threadId: string, entries: readonly Entry[]): void
}

/**
 * Hands this tab's own committed appends to this tab's subscribers at once. The backend's change
 * notification (Dexie's liveQuery re-running, then a range read) takes two more IndexedDB round
 * trips, most of the time between a write and a live view showing it. That notification still
 * comes, and still carries other tabs' commits: each subscriber gets every entry once, in seq
 * order, whichever path brings it first. A subscriber takes this path only when the appended
 * entries follow exactly what it was given; otherwise it waits for the backend, which brings
 * everything in between.
 */
export function sameTabDelivery(): SameTabDelivery {
  const byThread = new Map<string, Set<Subscriber>>()

  const deliver = (subscriber: Subscriber, event: ThreadStoreEvent): void => {
    try {
      subscriber.listener(event)
    } catch (error) {
      // The write has committed: a throwing listener must not make it look failed to the writer.
      queueMicrotask(() => {
        throw error
      })
    }
  }

  return {
    subscribe(threadId, listener, afterSeq, subscribeBackend) {
      const subscriber: Subscriber = { listener, delivered: afterSeq, stopped: false }
      let subscribers = byThread.get(threadId)
      if (subscribers === undefined) byThread.set(threadId, (subscribers = new Set()))
      subscribers.add(subscriber)
      const stopBackend = subscribeBackend(
        (event) => {
          if (subscriber.stopped) return
          if (event.type === 'entry-append') {
            const delivered = subscriber.delivered
            const fresh = delivered === undefined ? event.entries : event.entries.filter((entry) => entry.seq > delivered)
            if (fresh.length === 0) return
            subscriber.delivered = (fresh[fresh.length - 1] as Entry).seq
            listener(fresh.length === event.entries.length ? event : { ...event, entries: fresh })
            return
          }
          if (event.type === 'record-update') {
            listener(event)
            return
          }
          if (event.type === 'thread-rebase') {
            // The listener reads the thread again up to `lastSeq`: this tab's appends go on from there.
            subscriber.delivered = event.lastSeq
            listener(event)
            return
          }
          // After a delete the backend starts again from nothing; after a failure it has stopped.
          if (event.type === 'thread-delete') subscriber.delivered = -1
          else subscribers.delete(subscriber)
          listener(event)
        },
        () => subscriber.delivered,
      )
      return () => {
        subscriber.stopped = true
        subscribers.delete(subscriber)
        if (subscribers.size === 0 && byThread.get(threadId) === subscribers) byThread.delete(threadId)
        stopBackend()
      }
    },

    committed(threadId, entries) {
      const first = entries[0]
      const subscribers = byThread.get(threadId)
      if (first === undefined || subscribers === undefined) return
      for (const subscriber of [...subscribers]) {
        if (subscriber.stopped || subscriber.delivered === undefined || first.seq !== subscriber.delivered + 1) continue
        subscriber.delivered = (entries[entries.length - 1] as Entry).seq
        deliver(subscriber, { type: 'entry-append', threadId: first.threadId, entries })
      }
    },
  }
}
