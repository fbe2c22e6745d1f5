import { createThreadlensClient, type ThreadlensClient } from '@threadlens/client'
import { openThreadlensStores, type ThreadlensStores } from '@threadlens/store'
import { CHAT_DATABASE_NAME } from './chat-config'

export interface ChatStores {
  readonly stores: ThreadlensStores
  readonly client: ThreadlensClient
}

/** What e2e tests read from the page (`window.__threadlensChat`): the stores, to check what was written. */
export interface ChatHandle {
  readonly stores: ThreadlensStores
}

let opening: Promise<ChatStores> | undefined

/** Opens the chat's database once per page (StrictMode runs effects twice). */
export function openChatStores(): Promise<ChatStores> {
  opening ??= openThreadlensStores({ name: CHAT_DATABASE_NAME }).then((stores) => {
    ;(globalThis as { __threadlensChat?: ChatHandle }).__threadlensChat = { stores }
    return { stores, client: createThreadlensClient({ threads: stores.threads, memory: stores.memory, calls: stores.calls }) }
  })
  // A failed open may succeed on retry (e.g. after the user closes a tab that blocked an upgrade).
  opening.catch(() => {
    opening = undefined
  })
  return opening
}
