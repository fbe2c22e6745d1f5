import { threadCalls } from '@threadlens/client'
import { openThreadlensStores } from '@threadlens/store'
import { convertToModelMessages, simulateReadableStream, stepCountIs, streamText, type UIMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { Suspense, type ComponentType } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { chatRoute, tools } from '../examples/server-route'

// The server-route pair of adoption examples (examples/minimal-server-chat.tsx and the same app with
// threadlens, examples/adopted-server-chat.tsx), each talking to the README's route
// (examples/server-route.ts) run in the page with the AI SDK's mock model: `fetch('/api/chat')`
// goes to the route function instead of the network.

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input - 30, cacheRead: 30, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
})

/** A model that asks for the order's status, then answers: two steps of one call. */
function routeModel(): MockLanguageModelV4 {
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

let root: Root | undefined
afterEach(() => {
  root?.unmount()
  root = undefined
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

/** The route an app without threadlens has: the whole history from the body, the same model and tools. */
function plainRoute(model: MockLanguageModelV4): (request: Request) => Promise<Response> {
  return async (request) => {
    const { messages } = (await request.json()) as { messages: UIMessage[] }
    const result = streamText({ model, tools, stopWhen: stepCountIs(3), messages: await convertToModelMessages(messages) })
    return result.toUIMessageStreamResponse()
  }
}

function serveRoute(route: (request: Request) => Promise<Response>): void {
  const network = globalThis.fetch
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    return url.pathname === '/api/chat' ? route(new Request(url, init)) : network(input, init)
  })
}

function render(Chat: ComponentType): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  root.render(
    <Suspense fallback={<p>loading</p>}>
      <Chat />
    </Suspense>,
  )
  return container
}

async function send(container: HTMLElement, text: string): Promise<void> {
  const input = await vi.waitFor(() => {
    const found = container.querySelector<HTMLInputElement>('input[aria-label="Message"]')
    if (found === null || found.disabled) throw new Error(`the chat is not ready: ${container.innerHTML.slice(0, 300)}`)
    return found
  }, { timeout: 10_000 })
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  input.form?.requestSubmit()
}

const assistantText = (container: HTMLElement) => [...container.querySelectorAll('article[data-role="assistant"]')].map((element) => element.textContent ?? '')

describe('the server-route adoption examples, in a real browser', () => {
  it('the minimal app gets the route’s answer, keeping nothing', async () => {
    serveRoute(plainRoute(routeModel()))
    const { Chat } = await import('../examples/minimal-server-chat')
    const container = render(Chat)
    await send(container, 'Where is order 7?')
    await vi.waitFor(() => expect(assistantText(container).at(-1)).toContain('Order 7 has shipped.'), { timeout: 10_000 })
  })

  it('the adopted app gets the same answer, stores the chat with the route’s usage and steps on one call, and shows the devtools', async () => {
    serveRoute(chatRoute(routeModel()))
    const { Chat } = await import('../examples/adopted-server-chat')
    const container = render(Chat)
    await send(container, 'Where is order 7?')
    await vi.waitFor(() => expect(assistantText(container).at(-1)).toContain('Order 7 has shipped.'), { timeout: 10_000 })
    expect(container.querySelector('[data-testid="threadlens-devtools"]')).not.toBeNull()
    const stores = await openThreadlensStores({ name: 'my-support-chat' })
    await vi.waitFor(async () => {
      const thread = await stores.threads.load('chat')
      expect(thread.entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
      const calls = threadCalls(thread)
      expect(calls).toHaveLength(1)
      expect(calls[0]?.record?.stored).toMatchObject({ model: 'route-model', stopReason: 'stop', inputTokens: 210, outputTokens: 15, cachedInputTokens: 60 })
      expect(calls[0]?.record?.stored?.steps).toHaveLength(2)
    }, { timeout: 10_000 })
    stores.db?.close()
  })
})
