import { useCallback, useSyncExternalStore } from 'react'
import type { SessionSnapshot, SessionSource } from '@threadlens/core'

// Repeated on purpose: the same overloads and identity default as packages/react/src/threads/use-thread.ts and
// packages/react/src/memory/use-memory.ts (each public hook keeps its own typed overloads and docs).
const identity = <T>(value: T): T => value

/**
 * A live session's state. Re-renders only when what `selector` returns changes (by `Object.is`);
 * the selector must return a stable value for the same snapshot.
 *
 * @example const busy = useSession(session, (snapshot) => snapshot.status !== 'idle')
 */
export function useSession(session: SessionSource): SessionSnapshot
export function useSession<TSelected>(session: SessionSource, selector: (snapshot: SessionSnapshot) => TSelected): TSelected
export function useSession<TSelected>(
  session: SessionSource,
  selector: (snapshot: SessionSnapshot) => TSelected = identity as (snapshot: SessionSnapshot) => TSelected,
): TSelected {
  // Bound once per session, so React does not resubscribe on every render.
  const subscribe = useCallback((listener: () => void) => session.subscribe(listener), [session])
  const select = () => selector(session.getSnapshot())
  return useSyncExternalStore(subscribe, select, select)
}
