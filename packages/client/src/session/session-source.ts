import type { SessionSnapshot, SessionSource } from '@threadlens/core'
import { idleSessionSnapshot } from '@threadlens/core/internal'
import { createStore } from 'zustand/vanilla'

/** A `SessionSource` you drive yourself (tests, demos, or a loop of your own). */
export interface SessionSourceController extends SessionSource {
  /** Replaces the fields given; listeners hear one change. */
  update(changes: Partial<SessionSnapshot>): void
}

/**
 * A session source for a chat loop of your own: give `threadId` and `status`, and whatever else
 * you know; the rest starts as an idle session's (`@threadlens/agent`'s `Session` is a source already).
 */
export function createSessionSource(initial: Partial<SessionSnapshot> & Pick<SessionSnapshot, 'threadId' | 'status'>): SessionSourceController {
  const store = createStore<SessionSnapshot>()(() => ({ ...idleSessionSnapshot(initial.threadId), ...initial }))
  return {
    subscribe: (listener) => store.subscribe(() => listener()),
    getSnapshot: store.getState,
    update: (changes) => store.setState(changes),
  }
}
