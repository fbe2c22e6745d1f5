// Test helpers: not part of the `./testing` entry.
import type { TokenCounter } from '@threadlens/core'
import { definePolicy } from '@threadlens/core'
import { type ChatTransport, DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import type { ChatPersistence } from '../chat-persistence'
import { projectedSendMessagesRequest } from '../projected-request'

/** `transport.sendMessages` as `useChat` calls it when the user submits a message in chat `chatId`. */
export function submit(transport: ChatTransport<UIMessage>, chatId: string, messages: UIMessage[]): Promise<ReadableStream<UIMessageChunk>> {
  return transport.sendMessages({ trigger: 'submit-message', chatId, messageId: undefined, messages, abortSignal: undefined })
}

/** An app's DefaultChatTransport to a server route at `api`, projecting under a 4,000-token policy; `fetch` stands in for the network. */
export function routeTransport(
  persistence: ChatPersistence,
  counter: TokenCounter,
  api: string,
  fetch: (url: string, init: RequestInit | undefined) => Promise<Response>,
): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport<UIMessage>({
    api,
    prepareSendMessagesRequest: projectedSendMessagesRequest({
      persistence,
      policy: definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 500 }),
      counter,
    }),
    fetch: (url, init) => fetch(String(url), init),
  })
}
