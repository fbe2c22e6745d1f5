import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

// Stands in for the provider behind `server-route.ts` in tests: the AI SDK's own mock model, asking
// for order 7's status (one tool step), then answering, each step with usage that read 30 tokens
// from the provider's cache.

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input - 30, cacheRead: 30, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
})

/** What a call record stores for one answer of `routeModel()`, its two steps added up. */
export const routeModelTotals = { model: 'route-model', stopReason: 'stop', inputTokens: 210, outputTokens: 15, cachedInputTokens: 60 } as const

/** A fresh model (each serves its two steps once): 90 + 120 input tokens, 9 + 6 output, 60 read from cache. */
export function routeModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    modelId: 'route-model',
    doStream: [
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'orderStatus', input: '{"orderId":"7"}' },
            { type: 'finish', usage: usage(90, 9), finishReason: { unified: 'tool-calls', raw: undefined } },
          ],
        }),
      },
      {
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Order 7 has shipped.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', usage: usage(120, 6), finishReason: { unified: 'stop', raw: undefined } },
          ],
        }),
      },
    ],
  })
}
