import type { ContextPolicy, Memory, ProjectionResult, Summarizer, ToolSchema } from '@threadlens/core'
import {
  asSchema,
  streamText,
  toUIMessageStream,
  type ChatTransport,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type SystemModelMessage,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from 'ai'
import { buildCallRecord, reportedUsage } from './call-records'
import type { ChatPersistence } from './chat-persistence'
import { InvalidAdapterOptionsError } from './errors'
import { afterFirstPaint, counterNow } from '@threadlens/core/internal'
import type { CounterSource } from '@threadlens/core/models'

/** What the transport sent for one model call: for logs, tests and custom panels. */
export interface ProjectedCall {
  readonly threadId: string
  /** `<messageId>:<step>`: the entries this call writes share it as `refs.callId`. */
  readonly callId: string
  /** Exactly what `streamText` received as `instructions`. */
  readonly instructions: readonly SystemModelMessage[] | undefined
  /** Exactly what `streamText` received as `messages`. */
  readonly messages: readonly ModelMessage[]
  readonly projection: ProjectionResult
}

export interface ProjectedChatTransportOptions {
  /** Where the chat is stored (`createChatPersistence`). */
  readonly persistence: ChatPersistence
  /** Any AI SDK language model: a provider's (direct-to-provider, local server) or `MockLanguageModelV4` in tests. */
  readonly model: LanguageModel
  /** How the thread is projected for every call (budget, windows, summaries, system prompt). */
  readonly policy: ContextPolicy
  /**
   * The token counter the projection uses, or its promise (`createTokenCounter('o200k_base')`, not
   * awaited): a send before it resolves is projected with the estimate (`estimatedTokenCounter`),
   * which never counts below the exact tokens, and recorded as estimated.
   */
  readonly counter: CounterSource
  /**
   * Writes summaries when the projection needs one (`meta.needsSummary`): before a call, the
   * history that no longer fits is summarized into an appended `summary` entry (core's `compact`;
   * nothing is removed). Default: none (old history is dropped from the projection, never summarized).
   */
  readonly summarizer?: Summarizer
  /** Tools for `streamText`; their schemas count against the budget. Default: none. */
  readonly tools?: ToolSet
  /** The memory segment (text, or a `Memory` rendered by the policy). Default: none. */
  readonly memory?: string | Memory | (() => string | Memory | undefined)
  /** Called with each call's projection before it is sent. Default: none. */
  readonly onCall?: (call: ProjectedCall) => void
  /** Called when recording a finished call fails (storage full, …). Default: `console.error`. */
  readonly onRecordError?: (error: unknown) => void
  /**
   * Longest wait, in milliseconds, for the previous call's record to be stored before the next call
   * is sent (the two must not race). Default: 5000.
   */
  readonly recordWaitMs?: number
  /** Other `streamText` settings (temperature, maxOutputTokens, headers, …). Default: none. */
  readonly streamTextOptions?: Omit<Parameters<typeof streamText>[0], 'model' | 'messages' | 'prompt' | 'system' | 'tools' | 'abortSignal'>
}

export async function toolSchemasOf(tools: ToolSet | undefined): Promise<ToolSchema[]> {
  const schemas: ToolSchema[] = []
  for (const [name, tool] of Object.entries(tools ?? {})) {
    const inputSchema = (tool as { inputSchema?: Parameters<typeof asSchema>[0] }).inputSchema
    const parameters = inputSchema === undefined ? {} : ((await asSchema(inputSchema).jsonSchema) as { [key: string]: unknown })
    const description = (tool as { description?: unknown }).description
    schemas.push({ name, ...(typeof description === 'string' ? { description } : {}), parameters })
  }
  return schemas
}

export function modelName(model: LanguageModel): { model: string; provider: string } {
  if (typeof model === 'string') return { model, provider: model.includes('/') ? (model.split('/')[0] ?? 'gateway') : 'gateway' }
  return { model: model.modelId, provider: model.provider }
}

let sending: Promise<typeof import('./project-for-send')> | undefined

/** The projection and compaction code, loaded once per page; a failed load is tried again at the next send. */
export function sendModule(): Promise<typeof import('./project-for-send')> {
  sending ??= import('./project-for-send').catch((error: unknown) => {
    sending = undefined
    throw error
  })
  return sending
}

/**
 * A `ChatTransport` for `useChat` that runs `streamText` in the browser (direct-to-provider and
 * local-model apps) with the policy's projection of the stored thread instead of the whole history:
 * 1. the messages `useChat` sends are saved (the user's message is stored before the model answers;
 *    regenerate and edit become branches);
 * 2. the current thread is projected under `policy` and sent as `ModelMessage`s (one model call per
 *    send: tool results come back through `useChat`'s automatic resend, each one projected again);
 * 3. when the answer is done the whole list is saved with the call's record (model, policy,
 *    tools, projected-messages hash, usage, stop reason) on its entries, where the devtools read it.
 */
export function createProjectedChatTransport(options: ProjectedChatTransportOptions): ChatTransport<UIMessage> {
  const { persistence, model, policy, tools, summarizer } = options
  if (persistence === undefined || typeof persistence.save !== 'function') {
    throw new InvalidAdapterOptionsError('persistence is required: pass createChatPersistence({ store, chatId })')
  }
  const recordWaitMs = options.recordWaitMs ?? 5000
  const reportRecordError = options.onRecordError ?? ((error: unknown) => console.error('threadlens: could not store a model call', error))
  const schemasPromise = toolSchemasOf(tools)
  // Fetched once the page has painted, so the first send does not wait for it.
  void afterFirstPaint()
    .then(sendModule)
    .catch(() => undefined)
  let previousRecord: Promise<void> = Promise.resolve()

  return {
    async sendMessages({ messages, abortSignal }) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([previousRecord, new Promise<void>((resolve) => (timer = setTimeout(resolve, recordWaitMs)))])
      clearTimeout(timer)
      await persistence.save(messages)
      const counter = counterNow(options.counter, policy.tokenizer)
      const toolSchemas = await schemasPromise
      const memory = typeof options.memory === 'function' ? options.memory() : options.memory
      const { projectForSend, modelCall } = await sendModule()
      const { thread, projected } = await projectForSend({ persistence, policy, counter, toolSchemas, memory, summarizer, abortSignal })
      const threadId = persistence.currentThreadId()
      const { instructions, projection, modelMessages, responseId, callId } = modelCall(projected, messages)
      options.onCall?.({ threadId, callId, instructions, messages: modelMessages, projection })

      const result = streamText({
        ...options.streamTextOptions,
        model,
        ...(instructions === undefined ? {} : { instructions }),
        messages: modelMessages,
        // a system message after history only if a policy ever puts one there
        ...(modelMessages.some((message) => message.role === 'system') ? { allowSystemInMessages: true } : {}),
        ...(tools === undefined ? {} : { tools }),
        ...(abortSignal === undefined ? {} : { abortSignal }),
      })
      let settle: () => void = () => undefined
      previousRecord = new Promise<void>((resolve) => (settle = resolve))
      const names = modelName(model)
      const memoryText = typeof memory === 'string' ? memory : undefined
      return toUIMessageStream({
        stream: result.stream,
        ...(tools === undefined ? {} : { tools }),
        originalMessages: messages,
        generateMessageId: () => responseId,
        onFinish: ({ messages: finished }) => {
          const record = {
            ...names,
            counter,
            policy,
            tools: toolSchemas,
            memory: memoryText,
            projection,
            basisSeq: thread.nextSeq,
            entries: thread.entries,
          }
          void recordFinishedCall({ persistence, callId, record, result, finished }).catch(reportRecordError).finally(settle)
        },
      }) as ReadableStream<UIMessageChunk>
    },
    async reconnectToStream() {
      // The model runs in this tab: there is no server stream to resume after a reload. The user's
      // message is stored, so the history is back; the unfinished answer is not.
      return null
    },
  }
}

/** Stores a finished call's record (with the usage and stop reason the stream reported) and the final messages. */
async function recordFinishedCall(finished: {
  readonly persistence: ChatPersistence
  readonly callId: string
  readonly record: Omit<Parameters<typeof buildCallRecord>[0], 'stopReason' | 'usage'>
  readonly result: { readonly usage: PromiseLike<LanguageModelUsage>; readonly finishReason: PromiseLike<string> }
  readonly finished: UIMessage[]
}): Promise<void> {
  const { result } = finished
  const [usage, finishReason] = await Promise.all([
    Promise.resolve(result.usage).catch(() => undefined),
    Promise.resolve(result.finishReason).catch(() => 'error'),
  ])
  finished.persistence.recordCall(
    finished.callId,
    buildCallRecord({
      ...finished.record,
      stopReason: finishReason,
      usage: reportedUsage(usage),
    }),
  )
  await finished.persistence.save(finished.finished)
}
