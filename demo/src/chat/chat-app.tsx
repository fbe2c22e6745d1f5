import { ThreadlensProvider } from '@threadlens/react'
import { useEffect, useState } from 'react'
import { ChatShell } from './chat-shell'
import { openChatStores, type ChatStores } from './open-chat-stores'
import './chat.css'

/** The demo chat: opens the stores, then the app; says so while it loads or when it cannot. */
export function ChatApp() {
  const [ready, setReady] = useState<ChatStores | { readonly error: string } | undefined>(undefined)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    openChatStores().then(setReady, (error: unknown) => setReady({ error: error instanceof Error ? error.message : String(error) }))
  }, [attempt])
  if (ready === undefined) {
    return (
      <div className="chat-app chat-app--message" role="status" data-testid="chat-loading">
        Opening your chats…
      </div>
    )
  }
  if ('error' in ready) {
    return (
      <div className="chat-app chat-app--message">
        <p role="alert" className="chat-error-text">
          The chat history could not be opened: {ready.error}
        </p>
        <button
          type="button"
          className="chat-button"
          onClick={() => {
            setReady(undefined)
            setAttempt((count) => count + 1)
          }}
        >
          Try again
        </button>
      </div>
    )
  }
  return (
    <ThreadlensProvider client={ready.client}>
      <ChatShell stores={ready.stores} />
    </ThreadlensProvider>
  )
}
