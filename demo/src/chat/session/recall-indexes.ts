import type { RecallIndex } from '@threadlens/core/recall'
import type { ThreadStore } from '@threadlens/store'
import { useEffect, useState } from 'react'

// One recall index per thread, shared by the session (what is sent) and the chat's own projection
// (the meter and the greyed messages), so a thread is indexed once and both recall the same entries.
// It is restored from the terms the store keeps beside the entries (`threads.recallIndex`): a long
// thread is not tokenized again on every visit. The index code comes with the sending part of the
// chat (`chat-agent.ts`): the first screen does not download it.
const indexes = new Map<string, RecallIndex>()
const restoring = new Map<string, Promise<RecallIndex>>()

/** The recall index of a thread now: the one restored or made before, else one made with `create` (it indexes the entries it is given). */
export function recallIndexFor(threadId: string, create: () => RecallIndex): RecallIndex {
  let index = indexes.get(threadId)
  if (index === undefined) indexes.set(threadId, (index = create()))
  return index
}

/** The recall index of a thread, restored from the store (made with `create` if that fails). */
export function restoreRecallIndex(threads: ThreadStore, threadId: string, create: () => RecallIndex): Promise<RecallIndex> {
  const ready = indexes.get(threadId)
  if (ready !== undefined) return Promise.resolve(ready)
  let restored = restoring.get(threadId)
  if (restored === undefined) {
    restored = threads
      .recallIndex(threadId)
      .catch(() => create())
      // One made meanwhile (`recallIndexFor`) stays: the session and the chat must share one.
      .then((index) => recallIndexFor(threadId, () => index))
      .finally(() => restoring.delete(threadId))
    restoring.set(threadId, restored)
  }
  return restored
}

/** The thread's recall index once restored; `undefined` before, or while `create` (the sending part) has not loaded. */
export function useRecallIndex(threads: ThreadStore, threadId: string | undefined, create: (() => RecallIndex) | undefined): RecallIndex | undefined {
  const [restored, setRestored] = useState<{ readonly threadId: string; readonly index: RecallIndex }>()
  useEffect(() => {
    if (threadId === undefined || create === undefined) return undefined
    let current = true
    void restoreRecallIndex(threads, threadId, create).then((index) => current && setRestored({ threadId, index }))
    return () => {
      current = false
    }
  }, [threads, threadId, create])
  return restored !== undefined && restored.threadId === threadId ? restored.index : undefined
}

/** Forgets a thread's index (the thread was deleted). */
export function forgetRecallIndex(threadId: string): void {
  indexes.delete(threadId)
}
