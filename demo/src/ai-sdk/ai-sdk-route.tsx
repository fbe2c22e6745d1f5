import { Chat } from '@threadlens/ai-sdk/examples/adopted-chat'
import './ai-sdk-route.css'

/**
 * "AI SDK chat" (`?view=ai-sdk`): the adoption example of @threadlens/ai-sdk as it ships, a
 * `useChat` app whose history is stored in IndexedDB and whose model (the AI SDK's mock model,
 * offline) is sent the policy's projection; the devtools panel inspects it.
 */
export function AiSdkRoute() {
  return (
    <div className="ai-sdk-route">
      <nav aria-label="Demo views">
        <a href="./">← Back to the threadlens chat</a>
      </nav>
      <h1>AI SDK chat</h1>
      <p className="ai-sdk-hint">
        A Vercel AI SDK <code>useChat</code> app adopted onto threadlens. Try “weather in Oslo” for a tool call, reload to get the history back, and
        open the devtools (bottom right) to see what the model was sent.
      </p>
      <Chat />
    </div>
  )
}
