import type { ContextPolicy, Memory, Summarizer, ToolSchema } from '@threadlens/core'
import { type ModelMessage, type PrepareSendMessagesRequest, type SystemModelMessage, type UIMessage } from 'ai'
import { buildCallRecord } from './call-records'
import type { ChatPersistence } from './chat-persistence'
import type { ProjectedCall } from './projected-chat-transport'
import { sendModule } from './projected-chat-transport'
import { afterFirstPaint, counterNow } from '@threadlens/core/internal'
import type { CounterSource } from '@threadlens/core/models'

/** The JSON body a server route receives from `projectedSendMessagesRequest`. */
export interface ProjectedRequestBody {
  /** The chat's id (`useChat`'s `id`). */
  readonly id: string
  readonly trigger: 'submit-message' | 'regenerate-message'
  /** The leading system messages of the projection (system prompt, memory, summary); `readProjectedRequest` refuses them unless the route allows them. */
  readonly instructions: SystemModelMessage[] | undefined
  /** The projected history (read it with `readProjectedRequest`: the body is client input). */
  readonly messages: ModelMessage[]
  /** Pass as `toUIMessageStreamResponse({ generateMessageId: () => responseMessageId })` so the call's record finds its reply. */
  readonly responseMessageId: string
  /** The call's id (`<responseMessageId>:<step>`): `projectedMessageMetadata` reports the call under it. */
  readonly callId: string
}

export interface ProjectedRequestOptions {
  readonly persistence: ChatPersistence
  readonly policy: ContextPolicy
  /**
   * The token counter, or its promise (`createTokenCounter()`, not awaited): a send before it
   * resolves is projected with the estimate, which never counts below the exact tokens.
   */
  readonly counter: CounterSource
  /** The model's name as recorded for the devtools (the server picks the model). Default: the model the server reports (`projectedMessageMetadata`), `'server'` until it does. */
  readonly model?: string
  /** Default: `'server'`. */
  readonly provider?: string
  /** Schemas of the tools the server route gives `streamText`, so they count against the budget. Default: none. */
  readonly tools?: readonly ToolSchema[]
  /** The memory segment. Default: none. */
  readonly memory?: string | Memory
  /** Called with each call's projection before it is sent. Default: none. */
  readonly onCall?: (call: ProjectedCall) => void
  /**
   * Writes summaries in the browser when the projection needs one, before the request is sent: the
   * history that no longer fits is summarized into an appended `summary` entry (core's `compact`,
   * as `createProjectedChatTransport` does), and the route gets the summary and the recent turns.
   * A summarizer that calls a model can call the app's own route. Default: none (old history is
   * dropped from the projection, never summarized).
   */
  readonly summarizer?: Summarizer
}

/**
 * For apps whose model runs in a server route (`DefaultChatTransport`): a `prepareSendMessagesRequest`
 * that saves the chat, projects it under `policy` and sends the server the projection (as
 * `ModelMessage`s) instead of the whole history. The call is recorded on the reply's entries when
 * the reply is saved (`useChat({ onFinish: ({ messages }) => chat.save(messages) })`), with the
 * usage, stop reason, timings and steps the route reports in the reply's metadata
 * (`projectedMessageMetadata`); without that report the record has what the browser knows.
 */
export function projectedSendMessagesRequest(options: ProjectedRequestOptions): PrepareSendMessagesRequest<UIMessage> {
  const { persistence, policy } = options
  // Fetched once the page has painted, so the first send does not wait for it.
  void afterFirstPaint()
    .then(sendModule)
    .catch(() => undefined)
  return async ({ id, messages, body, trigger }) => {
    const counter = counterNow(options.counter, policy.tokenizer)
    await persistence.save(messages)
    const tools = options.tools ?? []
    // The projection code (fetched after the first paint, or now): an app's first load does not carry it.
    const { projectForSend, modelCall } = await sendModule()
    const { thread, projected } = await projectForSend({
      persistence,
      policy,
      counter,
      toolSchemas: tools,
      memory: options.memory,
      summarizer: options.summarizer,
      abortSignal: undefined,
    })
    const threadId = persistence.currentThreadId()
    const { instructions, projection, modelMessages, responseId: responseMessageId, callId } = modelCall(projected, messages)
    const startedAt = Date.now()
    options.onCall?.({ threadId, callId, instructions, messages: modelMessages, projection })
    persistence.recordCall(
      callId,
      buildCallRecord({
        model: options.model ?? 'server',
        provider: options.provider ?? 'server',
        counter,
        policy,
        tools,
        memory: typeof options.memory === 'string' ? options.memory : undefined,
        projection,
        basisSeq: thread.nextSeq,
        entries: thread.entries,
        stopReason: 'unknown',
        usage: undefined,
        timing: { startedAt },
      }),
    )
    const request: ProjectedRequestBody = { id, trigger, instructions, messages: modelMessages, responseMessageId, callId }
    return { body: { ...body, ...request } }
  }
}
