import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport } from 'ai'
import { useEffect, useState } from 'react'
import { createChatPersistence, projectedSendMessagesRequest } from '@threadlens/ai-sdk'
import { createTokenCounter, definePolicy } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensDevtools } from '@threadlens/devtools/production'

// The model runs in the app's server route (`server-route.ts`), which owns the instructions and tools.
const stores = openThreadlensStores({ name: 'my-support-chat' })
const chat = createChatPersistence({ store: stores.then((opened) => opened.threads), chatId: 'chat' })
const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 200 })
const transport = new DefaultChatTransport({ api: '/api/chat', prepareSendMessagesRequest: projectedSendMessagesRequest({ persistence: chat, policy, counter: createTokenCounter() }) })
const [history, client] = await Promise.all([chat.load(), stores.then(createThreadlensClient)])

/** The chat page: messages, tool calls, a box to type in. */
export function Chat() {
  const { messages, setMessages, sendMessage, regenerate, stop, status } = useChat({ id: chat.chatId, messages: history, resume: true, transport, onFinish: ({ messages }) => void chat.save(messages) })
  // Repeated on purpose: the same page in packages/ai-sdk/examples/minimal-chat.tsx, adopted-chat.tsx, minimal-server-chat.tsx
  // and adopted-server-chat.tsx (an adopter copies one example whole; src/adoption.test.ts diffs the pairs line by line).
  useEffect(() => chat.watch((stored) => status === 'ready' && setMessages(stored)), [status, setMessages])
  const [input, setInput] = useState('')
  return (
    <main className="chat">
      {messages.map((message) => (
        <article key={message.id} data-role={message.role}>
          {message.parts.map((part, index) =>
            part.type === 'text' ? <p key={index}>{part.text}</p> : part.type.startsWith('tool-') ? <pre key={index}>{JSON.stringify(part, null, 1)}</pre> : null,
          )}
        </article>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void sendMessage({ text: input })
          setInput('')
        }}
      >
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} disabled={status !== 'ready'} />
        <button type="submit" disabled={status !== 'ready'}>Send</button>
        <button type="button" onClick={() => void regenerate()} disabled={status !== 'ready' || messages.length === 0}>Regenerate</button>
        <button type="button" onClick={() => void stop().then(() => fetch(`/api/chat/${chat.chatId}/stream`, { method: 'DELETE' }))} disabled={status !== 'streaming'}>Stop</button>
      </form>
      <ThreadlensDevtools client={client} threadId={chat.currentThreadId()} policy={policy} />
    </main>
  )
}
