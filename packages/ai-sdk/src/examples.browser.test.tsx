import { openThreadlensStores } from '@threadlens/store'
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

async function send(container: HTMLElement, text: string): Promise<void> {
  const input = await vi.waitFor(() => {
    const found = container.querySelector<HTMLInputElement>('input[aria-label="Message"]')
    if (found === null || found.disabled) throw new Error(`the chat is not ready: ${container.innerHTML.slice(0, 300)}`)
    return found
  }, { timeout: 10_000 })
  // React tracks the input's value: set it as the browser would, then let React see the event.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  input.form?.requestSubmit()
}

const assistantText = (container: HTMLElement) => [...container.querySelectorAll('article[data-role="assistant"]')].map((element) => element.textContent ?? '')

describe('the adoption examples, in a real browser', () => {
  it('the minimal useChat app answers and runs the tool, keeping nothing', async () => {
    const { Chat } = await import('../examples/minimal-chat')
    const container = render(Chat)
    await send(container, 'weather in Oslo')
    await vi.waitFor(() => expect(assistantText(container).at(-1)).toContain('The weather tool says'), { timeout: 10_000 })
  })

  it('the adopted app answers the same, stores the chat with its call records, and shows the devtools', async () => {
    const { Chat } = await import('../examples/adopted-chat')
    const container = render(Chat)
    await send(container, 'weather in Oslo')
    await vi.waitFor(() => expect(assistantText(container).at(-1)).toContain('The weather tool says'), { timeout: 10_000 })
    expect(container.querySelector('[data-testid="threadlens-devtools"]')).not.toBeNull()
    const stores = await openThreadlensStores({ name: 'my-chat' })
    await vi.waitFor(async () => {
      const entries = (await stores.threads.load('chat')).entries
      expect(entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
      expect(entries.filter((entry) => entry.meta?.call !== undefined)).toHaveLength(2)
    }, { timeout: 10_000 })
  })
})
