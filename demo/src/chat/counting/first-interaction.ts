import { useSyncExternalStore } from 'react'

// What a visitor does that says they are here to use the page: a press, a key, a tap (focus alone
// is not one: the page may move focus itself). Until one of these, the page downloads only what
// shows the chat.
const interactions = ['pointerdown', 'keydown', 'touchstart'] as const

let interacted = false
const listeners = new Set<() => void>()

function onInteraction(): void {
  if (interacted) return
  interacted = true
  for (const type of interactions) globalThis.removeEventListener(type, onInteraction, true)
  for (const listener of [...listeners]) listener()
}

let listening = false
function listen(): void {
  if (listening || interacted) return
  listening = true
  for (const type of interactions) globalThis.addEventListener(type, onInteraction, { capture: true, passive: true })
}

/** Runs `callback` once the visitor first interacts with the page (at once if they already have). Returns a cancel. */
export function onFirstInteraction(callback: () => void): () => void {
  if (interacted) {
    callback()
    return () => undefined
  }
  listen()
  const once = () => {
    listeners.delete(once)
    callback()
  }
  listeners.add(once)
  return () => void listeners.delete(once)
}

const subscribe = (listener: () => void) => onFirstInteraction(listener)
const snapshot = () => interacted

/** Whether the visitor has interacted with the page yet (pressed, typed or tapped). */
export function useFirstInteraction(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot)
}
