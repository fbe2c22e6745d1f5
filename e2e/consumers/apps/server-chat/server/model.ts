// The server's model: the AI SDK's own mock (`ai/test`), streamed word by word with delays so a page
// can see an answer grow, stop it, or reload in the middle of it. "order <n>" makes an `orderStatus`
// tool call, then the answer from its result; "slowly" gives a long answer (30 parts, about 4 s); anything
// else is answered with a running number, so a regenerated answer differs from the one it replaces.
// Every step reports usage: 100 input tokens per message it was sent, one output token per streamed part.
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt']

export const SLOW_WORDS = 30

const textOf = (message: Prompt[number] | undefined): string =>
  message === undefined || typeof message.content === 'string'
    ? String(message?.content ?? '')
    : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')

function usage(prompt: Prompt, outputWords: number) {
  return {
    inputTokens: { total: prompt.length * 100, noCache: prompt.length * 100, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputWords, text: outputWords, reasoning: undefined },
  }
}

/** Streams `words` (the deltas, with their spaces). */
function answer(prompt: Prompt, words: string[], chunkDelayInMs: number) {
  return {
    stream: simulateReadableStream({
      initialDelayInMs: 50,
      chunkDelayInMs,
      chunks: [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'text-start' as const, id: 't' },
        ...words.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
        { type: 'text-end' as const, id: 't' },
        { type: 'finish' as const, usage: usage(prompt, words.length), finishReason: { unified: 'stop' as const, raw: 'end_turn' } },
      ],
    }),
  }
}

export function shopModel(): MockLanguageModelV4 {
  let answered = 0
  return new MockLanguageModelV4({
    provider: 'consumer-shop',
    modelId: 'consumer-shop-model',
    doStream: async ({ prompt }) => {
      const last = prompt.at(-1)
      if (last?.role === 'tool') {
        const result = last.content.find((part) => part.type === 'tool-result')
        const output =
          result?.type === 'tool-result' && result.output.type === 'json' ? (result.output.value as { orderId?: string; status?: string }) : {}
        return answer(prompt, `Order ${output.orderId} has ${output.status}.`.split(/(?<= )/), 20)
      }
      const asked = textOf(last)
      const order = /order (\d+)/i.exec(asked)?.[1]
      if (order !== undefined) {
        const chunks = [
          { type: 'stream-start' as const, warnings: [] },
          {
            type: 'tool-call' as const,
            toolCallId: `order-${order}-${prompt.length}`,
            toolName: 'orderStatus',
            input: JSON.stringify({ orderId: order }),
          },
          { type: 'finish' as const, usage: usage(prompt, 5), finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' } },
        ]
        return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 20 }) }
      }
      if (/slowly/i.test(asked)) {
        const words = Array.from({ length: SLOW_WORDS - 2 }, (_, index) => `word ${index + 1}, `)
        return answer(prompt, ['Slow answer: ', ...words, 'done.'], 130)
      }
      answered += 1
      return answer(prompt, `Answer ${answered}: you said "${asked}".`.split(/(?<= )/), 20)
    },
  })
}
