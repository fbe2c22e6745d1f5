import { useChat } from '@ai-sdk/react'
import { DirectChatTransport, ToolLoopAgent } from 'ai'
import { useState } from 'react'
import { chatModel, chatTools } from './chat-model'

const instructions = 'You are a helpful assistant.'
const transport = new DirectChatTransport({ agent: new ToolLoopAgent({ model: chatModel, instructions, tools: chatTools }) })

/** The chat page: messages, tool calls, a box to type in. */
export function Chat() {
  const { messages, sendMessage, regenerate, status } = useChat({ transport })
  // Repeated on purpose: the same page in packages/ai-sdk/examples/minimal-chat.tsx, adopted-chat.tsx, minimal-server-chat.tsx
  // and adopted-server-chat.tsx (an adopter copies one example whole; src/adoption.test.ts diffs the pairs line by line).
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
      </form>
    </main>
  )
}
