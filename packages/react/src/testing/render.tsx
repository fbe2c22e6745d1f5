import { vi } from 'vitest'
import type { ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { ThreadlensProvider, type ThreadlensProviderProps } from '../client/threadlens-context'

export interface Rendered {
  readonly container: HTMLElement
  rerender(node: ReactNode): void
  unmount(): void
}

/** Renders into a fresh element of `document.body` (real browser DOM), synchronously. */
export function render(node: ReactNode): Rendered {
  const container = document.createElement('div')
  document.body.append(container)
  const root: Root = createRoot(container)
  flushSync(() => root.render(node))
  return {
    container,
    rerender: (next) => flushSync(() => root.render(next)),
    unmount: () => {
      flushSync(() => root.unmount())
      container.remove()
    },
  }
}

/**
 * Renders `node` inside a `<ThreadlensProvider>` of `client` (a rerender keeps the provider);
 * `output` is the first `<output>` element rendered.
 */
export function renderWithClient(client: ThreadlensProviderProps['client'], node: ReactNode): Rendered & { readonly output: HTMLOutputElement } {
  const inProvider = (child: ReactNode) => <ThreadlensProvider client={client}>{child}</ThreadlensProvider>
  const view = render(inProvider(node))
  return {
    container: view.container,
    rerender: (next) => view.rerender(inProvider(next)),
    unmount: view.unmount,
    get output() {
      return view.container.querySelector('output') as HTMLOutputElement
    },
  }
}

/** Lets pending microtasks, store notifications and React's scheduled work run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0))
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))
  }
}

/** `vi.waitFor` with room for a loaded machine (the default gives up after 1 s). */
export function eventually<T>(callback: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(callback, { timeout: 10_000, interval: 20 })
}
