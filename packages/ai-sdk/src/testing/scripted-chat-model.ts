import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

export interface ScriptedChatModelOptions {
  /** Delay between streamed chunks, in milliseconds. Default: 0. */
  readonly chunkDelayInMs?: number
}

type Prompt = Parameters<MockLanguageModelV4['doStream']>[0]['prompt']

function textOf(message: Prompt[number] | undefined): string {
  if (message === undefined) return ''
  if (typeof message.content === 'string') return message.content
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
}

function usage(prompt: Prompt, output: string) {
  const input = Math.ceil(JSON.stringify(prompt).length / 4)
  const outputTokens = Math.ceil(output.length / 4)
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  }
}

/**
 * An offline chat model (the AI SDK's own `MockLanguageModelV4`) for demos and tests:
 * "weather in <city>" makes a `weather` tool call; after a tool result it reports the result;
 * anything else is answered with how many messages it received, so a test can see the projection.
 */
export function scriptedChatModel(options: ScriptedChatModelOptions = {}): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'threadlens-demo',
    modelId: 'scripted-chat',
    doStream: async ({ prompt }) => {
      const last = prompt.at(-1)
      const chunkDelayInMs = options.chunkDelayInMs ?? 0
      if (last?.role === 'user') {
        const city = /weather in ([A-Za-zÀ-ÿ -]+?)[?.!]*$/i.exec(textOf(last).trim())?.[1]
        if (city !== undefined) {
          const input = JSON.stringify({ city })
          return {
            stream: simulateReadableStream({
              chunkDelayInMs,
              chunks: [
                { type: 'stream-start' as const, warnings: [] },
                {
                  type: 'tool-call' as const,
                  toolCallId: `call-${prompt.length}-${city.length}-${Math.random().toString(36).slice(2, 8)}`,
                  toolName: 'weather',
                  input,
                },
                { type: 'finish' as const, usage: usage(prompt, input), finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' } },
              ],
            }),
          }
        }
      }
      let reply: string
      if (last?.role === 'tool') {
        const result = last.content.find((part) => part.type === 'tool-result')
        const output = result?.type === 'tool-result' ? result.output : undefined
        const value =
          output === undefined
            ? ''
            : 'value' in output
              ? typeof output.value === 'string'
                ? output.value
                : JSON.stringify(output.value)
              : output.type
        reply = `The ${result?.type === 'tool-result' ? result.toolName : 'tool'} tool says: ${value}`
      } else {
        const user = textOf(last)
        reply = `You said "${user.slice(0, 80)}". I was sent ${prompt.length} messages.`
      }
      const words = reply.split(/(?<= )/)
      return {
        // Repeated on purpose: the same stream as e2e/consumers/apps/server-chat/server/model.ts (the consumer app stands
        // alone, built from the packed packages, and cannot import this test kit).
        stream: simulateReadableStream({
          chunkDelayInMs,
          chunks: [
            { type: 'stream-start' as const, warnings: [] },
            { type: 'text-start' as const, id: 't' },
            ...words.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
            { type: 'text-end' as const, id: 't' },
            { type: 'finish' as const, usage: usage(prompt, reply), finishReason: { unified: 'stop' as const, raw: 'stop' } },
          ],
        }),
      }
    },
  })
}
