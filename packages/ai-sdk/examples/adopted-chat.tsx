import { useChat } from '@ai-sdk/react'
import { lastAssistantMessageIsCompleteWithToolCalls } from 'ai'
import { useEffect, useState } from 'react'
import { chatModel, chatTools } from './chat-model'
import { createChatPersistence, createProjectedChatTransport } from '@threadlens/ai-sdk'
import { createTokenCounter, definePolicy, extractiveSummarizer } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensDevtools } from '@threadlens/devtools/production'

const instructions = 'You are a helpful assistant.'
const stores = openThreadlensStores({ name: 'my-chat' })
const chat = createChatPersistence({ store: stores.then((opened) => opened.threads), chatId: 'chat' })
const policy = definePolicy({ maxInputTokens: 1000, reserveOutputTokens: 200, systemPrompt: instructions })
const transport = createProjectedChatTransport({ persistence: chat, model: chatModel, tools: chatTools, policy, counter: createTokenCounter(), summarizer: extractiveSummarizer() })
const loaded = Promise.all([chat.load(), stores.then(createThreadlensClient)])

/** The chat page: messages, tool calls, a box to type in. */
export function Chat() {
  const { messages, setMessages, sendMessage, regenerate, status } = useChat({ id: chat.chatId, transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls })
  const [client, setClient] = useState<Awaited<typeof loaded>[1]>() // set once the stored history is shown
  useEffect(() => void loaded.then(([history, opened]) => (setMessages(history), setClient(opened))), [setMessages])
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
        <button type="submit" disabled={status !== 'ready' || client === undefined}>Send</button>
        <button type="button" onClick={() => void regenerate()} disabled={status !== 'ready' || messages.length === 0}>Regenerate</button>
      </form>
      {client && <ThreadlensDevtools client={client} threadId={chat.currentThreadId()} policy={policy} />}
    </main>
  )
}
