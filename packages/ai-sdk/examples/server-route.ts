// The server half of a `useChat` app whose model runs on the server and whose browser sends the
// projection (`projectedSendMessagesRequest`). The route owns the system prompt and the tools; it
// reports each call's usage, stop reason, timings and steps in the reply's metadata, where the
// browser's save completes the call's record for the devtools. It keeps each chat's running reply
// for `useChat({ resume: true })`: in Next.js, POST is `app/api/chat/route.ts`, GET and DELETE are
// `app/api/chat/[id]/stream/route.ts`.
import { InvalidProjectedRequestError, projectedMessageMetadata, readProjectedRequest, type ProjectedRequest } from '@threadlens/ai-sdk'
import { stepCountIs, streamText, tool, UI_MESSAGE_STREAM_HEADERS, type LanguageModel } from 'ai'
import { z } from 'zod'

const instructions = 'You are the support agent of an online shop. Be brief.'

export const tools = {
  orderStatus: tool({
    description: 'The delivery status of an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
  }),
}

/**
 * Where the route keeps each chat's running reply (its SSE text) until it ends. `inMemoryReplies()`
 * serves one server process; several processes keep the same three operations in `resumable-stream`
 * (over Redis) with a cancel message of their own.
 */
export interface ReplyStreams {
  /** Keeps the chat's new reply, from its first chunk to its end, and how to cancel it. */
  keep(chatId: string, reply: ReadableStream<string>, cancel: () => void): Promise<void>
  /** The chat's running reply from its first chunk, live to its end; null when none runs. */
  resume(chatId: string): ReadableStream<string> | null
  /** Cancels the chat's running reply, and the model call writing it. */
  stop(chatId: string): void
}

export function inMemoryReplies(): ReplyStreams {
  const running = new Map<string, { chunks: string[]; readers: Set<ReadableStreamDefaultController<string>>; cancel: () => void }>()
  return {
    async keep(chatId, reply, cancel) {
      const kept = { chunks: [] as string[], readers: new Set<ReadableStreamDefaultController<string>>(), cancel }
      running.set(chatId, kept)
      const source = reply.getReader()
      try {
        for (let read = await source.read(); !read.done; read = await source.read()) {
          kept.chunks.push(read.value)
          for (const reader of kept.readers) reader.enqueue(read.value)
        }
      } catch {
        // the model call failed: the reply's own stream told its reader
      } finally {
        for (const reader of kept.readers) reader.close()
        if (running.get(chatId) === kept) running.delete(chatId)
      }
    },
    resume(chatId) {
      const kept = running.get(chatId)
      if (kept === undefined) return null
      let self: ReadableStreamDefaultController<string>
      return new ReadableStream<string>({
        start(controller) {
          self = controller
          for (const chunk of kept.chunks) controller.enqueue(chunk)
          kept.readers.add(controller)
        },
        cancel: () => void kept.readers.delete(self),
      })
    },
    stop: (chatId) => running.get(chatId)?.cancel(),
  }
}

/** POST: the route with any AI SDK model (a provider's, the gateway's id, or a mock in tests). */
export function chatRoute(model: LanguageModel, replies: ReplyStreams = inMemoryReplies()): (request: Request) => Promise<Response> {
  return async function POST(request) {
    let projected: ProjectedRequest
    try {
      projected = readProjectedRequest(await request.json(), { instructions })
    } catch (error) {
      // Not JSON, or not a projected request (anyone can send the route a body): refused.
      if (error instanceof SyntaxError || InvalidProjectedRequestError.isInstance(error)) return Response.json({ error: error.message }, { status: 400 })
      throw error
    }
    // Not `request.signal`: a reload closes the request, and the reply runs on to be resumed. Stop is DELETE.
    const cancel = new AbortController()
    const result = streamText({ model, tools, stopWhen: stepCountIs(3), abortSignal: cancel.signal, ...projected.input })
    return result.toUIMessageStreamResponse({
      generateMessageId: () => projected.responseMessageId,
      messageMetadata: projectedMessageMetadata(projected),
      consumeSseStream: ({ stream }) => replies.keep(projected.id, stream, () => cancel.abort()),
    })
  }
}

/** GET `<api>/<chatId>/stream` resumes the chat's running reply (204: none runs); DELETE stops it. */
export function replyRoute(replies: ReplyStreams) {
  // Check here that the caller may read the chat, as for the chat itself.
  const chatId = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split('/').at(-2) ?? '')
  return {
    async GET(request: Request): Promise<Response> {
      const reply = replies.resume(chatId(request))
      return reply === null ? new Response(null, { status: 204 }) : new Response(reply.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS })
    },
    async DELETE(request: Request): Promise<Response> {
      replies.stop(chatId(request))
      return new Response(null, { status: 204 })
    },
  }
}

const replies = inMemoryReplies()
export const POST = chatRoute('openai/gpt-5-mini', replies)
export const { GET, DELETE } = replyRoute(replies)
