import { test, type BrowserContext, type Page } from '@playwright/test'
import { serveHarness } from '@threadlens/testing/node'

// A package's harness page (packages/<name>/src/testing/harness) in real tabs, for the specs that
// drive one: served on its own Vite server and origin while the spec's tests run, and driven
// through the global it sets on `window` (pages of one browser context share IndexedDB as tabs do).

export interface HarnessTabs<H> {
  /** The page's URL (set once the server is up: read it in tests and hooks). */
  readonly url: string
  /** Runs `body` in the page against the harness (it must use only its parameters; arguments and results are JSON). */
  call<T, A>(page: Page, body: (harness: H, argument: A) => T | Promise<T>, argument: A): Promise<T>
  /** Waits until the page has set up the harness. */
  ready(page: Page): Promise<void>
  /** Waits for the harness, then opens database `name` in it. */
  load(page: Page, name: string): Promise<void>
  /** A new tab of `context` on the harness page, database `name` open. */
  openTab(context: BrowserContext, name: string): Promise<Page>
}

/** Serves `name`'s harness page for this spec file's tests (started before the first, closed after the last). */
export function harnessTabs<H extends { open(name: string): unknown }>(
  name: 'agent' | 'store',
  global: 'agentHarness' | 'storeHarness',
): HarnessTabs<H> {
  let url = ''
  let close: (() => Promise<void>) | undefined
  test.beforeAll(async () => {
    const server = await serveHarness(name)
    url = server.url
    close = server.close
  })
  test.afterAll(async () => {
    await close?.()
  })
  const call = <T, A>(page: Page, body: (harness: H, argument: A) => T | Promise<T>, argument: A): Promise<T> =>
    page.evaluate(
      ([source, key, value]) => {
        const run = new Function(`return (${source})`)() as (harness: unknown, argument: unknown) => unknown
        return run((window as unknown as Record<string, unknown>)[key], value)
      },
      [body.toString(), global, argument] as const,
    ) as Promise<T>
  const ready = async (page: Page) => {
    await page.waitForFunction((key) => (window as unknown as Record<string, unknown>)[key] !== undefined, global)
  }
  const load = async (page: Page, database: string) => {
    await ready(page)
    await call(page, (harness, databaseName: string) => harness.open(databaseName), database)
  }
  return {
    get url() {
      return url
    },
    call,
    ready,
    load,
    async openTab(context, database) {
      const page = await context.newPage()
      page.on('pageerror', (error) => console.error('[threadlens] harness page error:', error.message))
      await page.goto(url)
      await load(page, database)
      return page
    },
  }
}
