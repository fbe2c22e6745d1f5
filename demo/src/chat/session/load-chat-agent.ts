import { lazyModule, useLazyModule } from '../lazy-module'

export type ChatAgent = typeof import('./chat-agent')

const chatAgent = lazyModule(() => import('./chat-agent'))

/**
 * Loads the sending part of the chat once (later calls share the first promise) and tells every
 * `useChatAgent` when it is there. A failed load is forgotten, so the next call (the next focus,
 * the next send) tries again.
 */
export const loadChatAgent: () => Promise<ChatAgent> = chatAgent.load

/**
 * The sending part once loaded, `undefined` until then. It starts loading at the visitor's first
 * interaction with the page (a press, a key, a tap), not before: a visit that only reads
 * downloads only what shows the chat. The composer also calls `loadChatAgent()` on focus and
 * typing, so a first send does not wait for it visibly. A failed early load shows nowhere: the
 * send that needs it reports its own failure.
 */
export function useChatAgent(): ChatAgent | undefined {
  return useLazyModule(chatAgent, false).loaded
}
