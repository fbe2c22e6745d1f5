// app/api/chat/route.ts: the server half of a `useChat` app whose model runs on the server and
// whose browser sends the projection (`projectedSendMessagesRequest`). The route owns the system
// prompt and the tools; it reports each call's usage, stop reason, timings and steps in the reply's
// metadata, where the browser's save completes the call's record for the devtools.
import { InvalidProjectedRequestError, projectedMessageMetadata, readProjectedRequest, type ProjectedRequest } from '@threadlens/ai-sdk'
import { stepCountIs, streamText, tool, type LanguageModel } from 'ai'
import { z } from 'zod'

const instructions = 'You are the support agent of an online shop. Be brief.'

export const tools = {
  orderStatus: tool({
    description: 'The delivery status of an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
  }),
}

/** The route with any AI SDK model (a provider's, the gateway's id, or a mock in tests). */
export function chatRoute(model: LanguageModel): (request: Request) => Promise<Response> {
  return async function POST(request) {
    let projected: ProjectedRequest
    try {
      projected = readProjectedRequest(await request.json(), { instructions })
    } catch (error) {
      // Not JSON, or not a projected request (anyone can send the route a body): refused.
      if (error instanceof SyntaxError || InvalidProjectedRequestError.isInstance(error)) return Response.json({ error: error.message }, { status: 400 })
      throw error
    }
    const result = streamText({ model, tools, stopWhen: stepCountIs(3), abortSignal: request.signal, ...projected.input })
    return result.toUIMessageStreamResponse({
      generateMessageId: () => projected.responseMessageId,
      messageMetadata: projectedMessageMetadata(projected),
    })
  }
}

export const POST = chatRoute('openai/gpt-5-mini')
