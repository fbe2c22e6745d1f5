import { useEffect, useState } from 'react'
import { onFirstInteraction } from '../counting/first-interaction'

export type ChatAgent = typeof import('./chat-agent')

let loading: Promise<ChatAgent> | undefined
let loaded: ChatAgent | undefined
const listeners = new Set<(agent: ChatAgent) => void>()

/**
 * Loads the sending part of the chat once (later calls share the first promise) and tells every
 * `useChatAgent` when it is there. A failed load is forgotten, so the next call (the next focus,
 * the next send) tries again.
 */
export function loadChatAgent(): Promise<ChatAgent> {
  loading ??= import('./chat-agent').then(
    (agent) => {
      loaded = agent
      for (const listener of listeners) listener(agent)
      return agent
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/**
 * The sending part once loaded, `undefined` until then. It starts loading at the visitor's first
 * interaction with the page (a press, a key, a tap), not before: a visit that only reads
 * downloads only what shows the chat. The composer also calls `loadChatAgent()` on focus and
 * typing, so a first send does not wait for it visibly.
 */
export function useChatAgent(): ChatAgent | undefined {
  const [agent, setAgent] = useState(loaded)
  useEffect(() => {
    if (agent !== undefined) return undefined
    if (loaded !== undefined) {
      setAgent(loaded)
      return undefined
    }
    listeners.add(setAgent)
    // A failed early load shows nowhere: the send that needs it reports its own failure.
    const cancel = onFirstInteraction(() => void loadChatAgent().catch(() => undefined))
    return () => {
      listeners.delete(setAgent)
      cancel()
    }
  }, [agent])
  return agent
}
