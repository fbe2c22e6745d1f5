import { afterEach, describe, expect, it, vi } from 'vitest'
import { afterFirstPaint } from './after-first-paint'

type PaintListener = (list: { getEntriesByName(name: string): readonly unknown[] }) => void

/** A page's globals: a document, idle callbacks, paint timing, with the first paint under the test's control. */
function fakePage(options: { painted: boolean }) {
  const listeners: PaintListener[] = []
  const idle: (() => void)[] = []
  vi.stubGlobal('document', {})
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback))
  vi.stubGlobal('performance', {
    getEntriesByName: (name: string) => (options.painted && name === 'first-contentful-paint' ? [{}] : []),
    now: () => 0,
  })
  vi.stubGlobal(
    'PerformanceObserver',
    class {
      constructor(readonly callback: PaintListener) {}
      observe() {
        listeners.push(this.callback)
      }
      disconnect() {
        listeners.splice(listeners.indexOf(this.callback), 1)
      }
    },
  )
  return {
    paint: () => [...listeners].forEach((listener) => listener({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) })),
    runIdle: () => idle.splice(0).forEach((callback) => callback()),
    idleCount: () => idle.length,
  }
}

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  await Promise.resolve()
  await Promise.resolve()
  return done
}

/** Fake timers, a fake page, and afterFirstPaint() started on it. */
function waitOnFakePage(options: { painted: boolean }) {
  vi.useFakeTimers()
  const page = fakePage(options)
  return { page, waiting: afterFirstPaint() }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('afterFirstPaint', () => {
  it('resolves at once outside a page', async () => {
    await expect(afterFirstPaint()).resolves.toBeUndefined()
  })

  it('waits for the first contentful paint, then an idle moment', async () => {
    const { page, waiting } = waitOnFakePage({ painted: false })
    expect(page.idleCount()).toBe(0)
    expect(await settled(waiting)).toBe(false)
    page.paint()
    expect(page.idleCount()).toBe(1)
    expect(await settled(waiting)).toBe(false)
    page.runIdle()
    expect(await settled(waiting)).toBe(true)
  })

  it('waits only for idle when the page has already painted', async () => {
    const { page, waiting } = waitOnFakePage({ painted: true })
    expect(page.idleCount()).toBe(1)
    page.runIdle()
    expect(await settled(waiting)).toBe(true)
  })

  it('does not wait for ever on a page that never paints: 2 s, then idle', async () => {
    const { page, waiting } = waitOnFakePage({ painted: false })
    vi.advanceTimersByTime(1999)
    expect(page.idleCount()).toBe(0)
    vi.advanceTimersByTime(1)
    expect(page.idleCount()).toBe(1)
    // A paint after the timeout starts nothing twice.
    page.paint()
    expect(page.idleCount()).toBe(1)
    page.runIdle()
    expect(await settled(waiting)).toBe(true)
  })
})

describe('createTokenCounter in a page', () => {
  async function freshModule(): Promise<typeof import('./token-counter')> {
    vi.resetModules()
    return import('./token-counter')
  }

  it('holds the load until after the first paint when nobody awaits the counter', async () => {
    vi.useFakeTimers()
    const page = fakePage({ painted: false })
    const { createTokenCounter, loadedTokenCounter } = await freshModule()
    const { counterNow } = await import('./counter-source')
    const pending = createTokenCounter('o200k_base')
    // Watching it (as every threadlens API does) starts nothing: the estimate stands in.
    expect(counterNow(pending).id).toBe('o200k_base~estimate')
    await vi.advanceTimersByTimeAsync(500)
    expect(loadedTokenCounter('o200k_base')).toBeUndefined()
    expect(page.idleCount()).toBe(0)
    page.paint()
    page.runIdle()
    vi.useRealTimers()
    const counter = await pending
    expect(counter.id).toBe('o200k_base')
    expect(counterNow(pending)).toBe(counter)
  })

  it('loads at once when awaited, painted or not', async () => {
    vi.useFakeTimers()
    const page = fakePage({ painted: false })
    const { createTokenCounter } = await freshModule()
    vi.useRealTimers()
    // No paint, no idle callback run, and the 2 s fallback never elapses (fake timers were in place).
    const counter = await createTokenCounter('o200k_base')
    expect(counter.exact).toBe(true)
    expect(page.idleCount()).toBe(0)
  })
})
