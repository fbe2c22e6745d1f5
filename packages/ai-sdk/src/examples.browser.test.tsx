import { threadCalls } from '@threadlens/core/calls'
import { openThreadlensStores } from '@threadlens/store'
import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from 'ai'
import type { MockLanguageModelV4 } from 'ai/test'
import { routeModel, routeModelTotals } from '../examples/route-model'
import { chatRoute, inMemoryReplies, replyRoute, tools } from '../examples/server-route'
import { Suspense, type ComponentType } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'

let root: Root | undefined
// Rendered as an app renders, outside `act`: the adopted app suspends on its stored history, and
// React retries a suspended render on its own only outside an act scope.
afterEach(() => {
  root?.unmount()
  root = undefined
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

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

/** Types `text` and presses Send, as a user can: once the box and the Send button are enabled (an adopted app enables Send when its stored history is shown). */
async function send(container: HTMLElement, text: string): Promise<void> {
  const [input, button] = await vi.waitFor(
    () => {
      const box = container.querySelector<HTMLInputElement>('input[aria-label="Message"]')
      const submit = container.querySelector<HTMLButtonElement>('button[type="submit"]')
      if (box === null || box.disabled || submit === null || submit.disabled)
        throw new Error(`the chat is not ready: ${container.innerHTML.slice(0, 300)}`)
      return [box, submit] as const
    },
    { timeout: 10_000 },
  )
  // React tracks the input's value: set it as the browser would, then let React see the event.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  button.click()
}

/** The route an app without threadlens has: the whole history from the body, the same model and tools. */
function plainRoute(model: MockLanguageModelV4): (request: Request) => Promise<Response> {
  return async (request) => {
    const { messages } = (await request.json()) as { messages: UIMessage[] }
    const result = streamText({ model, tools, stopWhen: stepCountIs(3), messages: await convertToModelMessages(messages) })
    return result.toUIMessageStreamResponse()
  }
}

/** `/api/chat` goes to the route; `/api/chat/<id>/stream` (the adopted app's resume GET and stop DELETE) to `replies`' routes. */
function serveRoute(route: (request: Request) => Promise<Response>, replies?: ReturnType<typeof replyRoute>): void {
  const network = globalThis.fetch
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href)
    if (url.pathname === '/api/chat') return route(new Request(url, init))
    const request = new Request(url, init)
    if (replies !== undefined && url.pathname.startsWith('/api/chat/'))
      return request.method === 'DELETE' ? replies.DELETE(request) : replies.GET(request)
    return network(input, init)
  })
}

const assistantText = (container: HTMLElement) =>
  [...container.querySelectorAll('article[data-role="assistant"]')].map((element) => element.textContent ?? '')

/** Renders the example's `Chat`, sends `question`, and waits until the last assistant message contains `answer`. */
async function answered(example: Promise<{ Chat: ComponentType }>, question: string, answer: string): Promise<HTMLElement> {
  const container = render((await example).Chat)
  await send(container, question)
  await vi.waitFor(() => expect(assistantText(container).at(-1)).toContain(answer), { timeout: 10_000 })
  return container
}

describe('the adoption examples, in a real browser', () => {
  it('the minimal useChat app answers and runs the tool, keeping nothing', async () => {
    await answered(import('../examples/minimal-chat'), 'weather in Oslo', 'The weather tool says')
  })

  it('the adopted app answers the same, stores the chat with its call records, and shows the devtools', async () => {
    const container = await answered(import('../examples/adopted-chat'), 'weather in Oslo', 'The weather tool says')
    expect(container.querySelector('[data-testid="threadlens-devtools"]')).not.toBeNull()
    const stores = await openThreadlensStores({ name: 'my-chat' })
    await vi.waitFor(
      async () => {
        const entries = (await stores.threads.load('chat')).entries
        expect(entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
        expect(entries.filter((entry) => entry.meta?.call !== undefined)).toHaveLength(2)
      },
      { timeout: 10_000 },
    )
  })
})

// The server-route pair (examples/minimal-server-chat.tsx and the same app with threadlens,
// examples/adopted-server-chat.tsx), each talking to a route run in the page with the AI SDK's mock
// model: `fetch('/api/chat')` goes to the route function instead of the network.
describe('the server-route adoption examples, in a real browser', () => {
  it('the minimal app gets the route’s answer, keeping nothing', async () => {
    serveRoute(plainRoute(routeModel()))
    await answered(import('../examples/minimal-server-chat'), 'Where is order 7?', 'Order 7 has shipped.')
  })

  it('the adopted app gets the same answer, stores the chat with the route’s usage and steps on one call, and shows the devtools', async () => {
    const replies = inMemoryReplies()
    serveRoute(chatRoute(routeModel(), replies), replyRoute(replies))
    const container = await answered(import('../examples/adopted-server-chat'), 'Where is order 7?', 'Order 7 has shipped.')
    expect(container.querySelector('[data-testid="threadlens-devtools"]')).not.toBeNull()
    const stores = await openThreadlensStores({ name: 'my-support-chat' })
    await vi.waitFor(
      async () => {
        const thread = await stores.threads.load('chat')
        expect(thread.entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
        const calls = threadCalls(thread)
        expect(calls).toHaveLength(1)
        expect(calls[0]?.record?.stored).toMatchObject(routeModelTotals)
        expect(calls[0]?.record?.stored?.steps).toHaveLength(2)
      },
      { timeout: 10_000 },
    )
    stores.db?.close()
  })
})
