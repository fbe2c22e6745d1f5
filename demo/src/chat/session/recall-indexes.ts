import type { RecallIndex } from '@threadlens/core/recall'

// One recall index per thread, shared by the session (what is sent) and the chat's own projection
// (the meter and the greyed messages), so a thread is indexed once and both recall the same entries.
// The index code comes with the sending part of the chat (`chat-agent.ts`): the first screen does
// not download it.
const indexes = new Map<string, RecallIndex>()

/** The recall index of a thread, made with `create` the first time: `policy.recall` searches it. */
export function recallIndexFor(threadId: string, create: () => RecallIndex): RecallIndex {
  let index = indexes.get(threadId)
  if (index === undefined) indexes.set(threadId, (index = create()))
  return index
}

/** Forgets a thread's index (the thread was deleted). */
export function forgetRecallIndex(threadId: string): void {
  indexes.delete(threadId)
}
