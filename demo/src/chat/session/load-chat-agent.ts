import { useEffect, useState } from 'react'

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
 * The sending part once loaded, `undefined` until then. It starts loading when the browser is
 * idle after the first paint (at the latest after `idleTimeoutMs`, default 1 s), and at once on
 * `loadChatAgent()` (the composer calls it on focus and typing), so a first send does not wait
 * for it visibly.
 */
export function useChatAgent(idleTimeoutMs = 1_000): ChatAgent | undefined {
  const [agent, setAgent] = useState(loaded)
  useEffect(() => {
    if (agent !== undefined) return undefined
    if (loaded !== undefined) {
      setAgent(loaded)
      return undefined
    }
    listeners.add(setAgent)
    // A failed idle load shows nowhere: the send that needs it reports its own failure.
    const start = () => void loadChatAgent().catch(() => undefined)
    const idle = globalThis.requestIdleCallback
    const handle = idle === undefined ? setTimeout(start, 0) : idle(start, { timeout: idleTimeoutMs })
    return () => {
      listeners.delete(setAgent)
      if (idle === undefined) clearTimeout(handle as ReturnType<typeof setTimeout>)
      else globalThis.cancelIdleCallback(handle as number)
    }
  }, [agent, idleTimeoutMs])
  return agent
}
