import { vi } from 'vitest'
import type { ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { flushSync } from 'react-dom'

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
