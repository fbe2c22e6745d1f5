/** Longest wait for a first paint: a hidden tab, or a page that shows nothing for long, still loads. */
const NO_PAINT_AFTER_MS = 2000

interface PageGlobals {
  readonly document?: unknown
  readonly requestIdleCallback?: (callback: () => void, options: { readonly timeout: number }) => unknown
  readonly setTimeout?: (callback: () => void, delay: number) => unknown
  readonly performance?: { getEntriesByName(name: string): readonly unknown[] }
  readonly PerformanceObserver?: new (callback: (list: { getEntriesByName(name: string): readonly unknown[] }) => void) => {
    observe(options: { readonly type: string; readonly buffered: boolean }): void
    disconnect(): void
  }
}

/**
 * Resolves at the first idle moment after the page's first contentful paint (or after 2 s without
 * one), so work that can wait (the ranks' download and parse) never delays what the app first
 * shows; immediately outside a page.
 */
export function afterFirstPaint(): Promise<void> {
  const page = globalThis as PageGlobals
  if (page.document === undefined) return Promise.resolve()
  return new Promise((resolve) => {
    let started = false
    const whenIdle = (): void => {
      if (started) return
      started = true
      if (page.requestIdleCallback !== undefined) page.requestIdleCallback(() => resolve(), { timeout: 1000 })
      else if (page.setTimeout !== undefined) page.setTimeout(resolve, 0)
      else resolve()
    }
    if ((page.performance?.getEntriesByName('first-contentful-paint').length ?? 0) > 0) {
      whenIdle()
      return
    }
    try {
      const Observer = page.PerformanceObserver
      if (Observer !== undefined) {
        const observer = new Observer((list) => {
          if (list.getEntriesByName('first-contentful-paint').length === 0) return
          observer.disconnect()
          whenIdle()
        })
        observer.observe({ type: 'paint', buffered: true })
      }
    } catch {
      // No paint timing here: the timeout below decides.
    }
    if (page.setTimeout !== undefined) page.setTimeout(whenIdle, NO_PAINT_AFTER_MS)
    else whenIdle()
  })
}
