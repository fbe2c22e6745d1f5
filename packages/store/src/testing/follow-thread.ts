import type { Entry } from '@threadlens/core'
import { expect } from 'vitest'
import type { ThreadStore, ThreadStoreEvent } from '../threads/thread-store'

/** What `followThread` keeps: the entries as the events tell them, and how many rebases came. */
export interface ThreadFollower {
  entries(): readonly Entry[]
  rebases(): number
  stop(): void
}

/**
 * Follows a thread the way a live view does, from `start` (its loaded entries): applies appends,
 * and on a rebase reads the thread again from the rebase's `fromSeq`. Events are applied in order;
 * an append that a re-read already brought is skipped, and one that leaves a gap fails.
 */
export function followThread(threads: ThreadStore, id: string, start: readonly Entry[]): ThreadFollower {
  let entries = [...start]
  let rebases = 0
  let queue = Promise.resolve()
  const apply = async (event: ThreadStoreEvent): Promise<void> => {
    if (event.type === 'entry-append') {
      const fresh = event.entries.filter((entry) => entry.seq >= entries.length)
      if (fresh.length > 0) expect(fresh[0]?.seq).toBe(entries.length)
      entries.push(...fresh)
    } else if (event.type === 'thread-rebase') {
      rebases++
      expect(event.fromSeq).toBeLessThanOrEqual(entries.length)
      const reread = (await threads.load(id)).entries
      expect(reread.length).toBeGreaterThan(event.lastSeq)
      entries = [...entries.slice(0, event.fromSeq), ...reread.slice(event.fromSeq)]
    }
  }
  const stop = threads.subscribe(
    id,
    (event) => {
      queue = queue.then(() => apply(event))
    },
    { afterSeq: start.length - 1 },
  )
  return { entries: () => entries, rebases: () => rebases, stop }
}

/** The seqs of the entries appended to thread `id` after `afterSeq`, in the order its subscribers are told them. */
export function appendedSeqs(threads: ThreadStore, id: string, afterSeq = -1): { readonly seqs: number[]; readonly stop: () => void } {
  const seqs: number[] = []
  const stop = threads.subscribe(
    id,
    (event) => {
      if (event.type === 'entry-append') seqs.push(...event.entries.map((entry) => entry.seq))
    },
    { afterSeq },
  )
  return { seqs, stop }
}
