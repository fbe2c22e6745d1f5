import { useStore } from 'zustand'
import type { ThreadSnapshot } from '@threadlens/client'
import { useThreadlensClient } from '../client/threadlens-context'

// Repeated on purpose: the same overloads and identity default as packages/react/src/memory/use-memory.ts and
// packages/react/src/session/use-session.ts (each public hook keeps its own typed overloads and docs).
const identity = <T>(value: T): T => value

/**
 * One stored thread, live: re-renders when a commit (from any tab) changes what `selector`
 * returns, and never otherwise. The selector must return a stable value for the same snapshot
 * (a field, or wrap an object-building selector in zustand's `useShallow`).
 *
 * @example const entryCount = useThread(threadId, (snapshot) => snapshot.thread?.entries.length ?? 0)
 */
export function useThread(threadId: string): ThreadSnapshot
export function useThread<TSelected>(threadId: string, selector: (snapshot: ThreadSnapshot) => TSelected): TSelected
export function useThread<TSelected>(
  threadId: string,
  selector: (snapshot: ThreadSnapshot) => TSelected = identity as (snapshot: ThreadSnapshot) => TSelected,
): TSelected {
  const live = useThreadlensClient().thread(threadId)
  return useStore(live, selector)
}
