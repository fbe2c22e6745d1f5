import { useStore } from 'zustand'
import type { MemorySnapshot } from '@threadlens/client'
import { useThreadlensClient } from '../client/threadlens-context'

// Repeated on purpose: the same overloads and identity default as packages/react/src/threads/use-thread.ts and
// packages/react/src/session/use-session.ts (each public hook keeps its own typed overloads and docs).
const identity = <T>(value: T): T => value

/**
 * One agent's memory (its spaces with data and revs), live across writes from every tab.
 * Same selector rules as `useThread`.
 *
 * @example const tasks = useMemory('planner', (snapshot) => snapshot.memory?.spaces.tasks.data)
 */
export function useMemory(agentId: string): MemorySnapshot
export function useMemory<TSelected>(agentId: string, selector: (snapshot: MemorySnapshot) => TSelected): TSelected
export function useMemory<TSelected>(
  agentId: string,
  selector: (snapshot: MemorySnapshot) => TSelected = identity as (snapshot: MemorySnapshot) => TSelected,
): TSelected {
  const live = useThreadlensClient().memoryOf(agentId)
  return useStore(live, selector)
}
